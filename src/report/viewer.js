// Game viewer of the HTML reports: steps through the plies the Rust side replayed (per ply
// the position in the game's own notation, the last move, the legal moves' first tokens and
// the counts) and draws them with TesseraBoard (board.js, the drawing `tessera serve` uses).
// No rules here: only drawing.
(function () {
  const data = JSON.parse(document.getElementById('games-data').textContent);
  const games = data.games;
  const board = document.getElementById('board');
  const sel = document.getElementById('game-select');
  const slider = document.getElementById('slider');
  const list = document.getElementById('movelist');
  const info = document.getElementById('ply-info');
  const counts = document.getElementById('ply-counts');
  const shown = document.getElementById('shown');
  let g = null, ply = 0;

  function draw() {
    const f = g.frames[ply];
    const final = ply === g.frames.length - 1;
    const drawn = TesseraBoard.draw(board, data.game, f.position, {
      last: f.last,
      marks: final ? g.marks : [],
      legal: (f.next || []).map(t => ({ move: t, clicks: [t] })),
    });
    slider.value = ply;
    info.textContent = `ply ${ply} of ${g.frames.length - 1}` +
      (ply > 0 ? ` — last move ${ply}.${g.moves[ply - 1]}` + (ply <= g.opening ? ' (opening)' : '') : ' — start') +
      (final ? ` — ${g.result}` : '');
    counts.textContent = f.counts.map(c => `${c.label} ${c.value}`).join(', ');
    list.querySelectorAll('span').forEach((sp, i) => sp.classList.toggle('cur', i + 1 === ply));
    shown.setAttribute('data-game', g.id);
    shown.setAttribute('data-key', g.key);
    shown.setAttribute('data-ply', ply);
    shown.setAttribute('data-position', f.position);
    shown.setAttribute('data-pieces', drawn.svg.querySelectorAll('.piece').length);
  }
  function load(i) {
    g = games[i];
    ply = 0;
    slider.max = g.frames.length - 1;
    list.innerHTML = '';
    g.moves.forEach((m, k) => {
      const sp = document.createElement('span');
      sp.textContent = (k + 1) + '.' + m;
      if (k < g.opening) sp.className = 'opening';
      sp.onclick = () => { ply = k + 1; draw(); };
      list.appendChild(sp);
      list.appendChild(document.createTextNode(' '));
    });
    draw();
  }
  games.forEach((gm, i) => {
    const o = document.createElement('option');
    o.value = i;
    o.textContent = gm.title;
    sel.appendChild(o);
  });
  sel.onchange = () => load(Number(sel.value));
  document.getElementById('first').onclick = () => { ply = 0; draw(); };
  document.getElementById('prev').onclick = () => { ply = Math.max(0, ply - 1); draw(); };
  document.getElementById('next').onclick = () => { ply = Math.min(g.frames.length - 1, ply + 1); draw(); };
  document.getElementById('last').onclick = () => { ply = g.frames.length - 1; draw(); };
  slider.oninput = () => { ply = Number(slider.value); draw(); };
  if (games.length === 0) { info.textContent = 'no games recorded'; return; }
  // #game=KEY selects a game: the record id on a tournament page, ROW-ID (row from 1) on a
  // fairness page, where every row's ids start at 0; #final steps to its last position.
  const hash = new URLSearchParams(location.hash.slice(1));
  let start = 0;
  if (hash.has('game')) {
    const k = games.findIndex(gm => String(gm.key) === hash.get('game'));
    if (k >= 0) start = k;
  }
  sel.value = start;
  load(start);
  if (hash.has('final')) { ply = g.frames.length - 1; draw(); }
})();
