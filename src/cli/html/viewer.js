// Game viewer: draws the positions the Rust side computed (one position text per ply, in the
// game's own notation) and steps through them. No rules here: only drawing.
(function () {
  const data = JSON.parse(document.getElementById('games-data').textContent);
  const games = data.games;
  const board = document.getElementById('board');
  const sel = document.getElementById('game-select');
  const slider = document.getElementById('slider');
  const list = document.getElementById('movelist');
  const info = document.getElementById('ply-info');
  const shown = document.getElementById('shown');
  const NS = 'http://www.w3.org/2000/svg';
  let g = null, ply = 0;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, attrs) {
    const t = el('text', Object.assign({ x: x, y: y, 'text-anchor': 'middle' }, attrs || {}), parent);
    t.textContent = s;
    return t;
  }

  // Othello: "64 cells a1..h8 row by row (X, O, -), space, side".
  function othello(svg, pos) {
    const cells = pos.split(' ')[0];
    const s = 44;
    el('rect', { x: 20, y: 20, width: 8 * s, height: 8 * s, fill: '#2e7d32' }, svg);
    for (let i = 0; i < 64; i++) {
      const r = Math.floor(i / 8), c = i % 8;
      el('rect', { x: 20 + c * s, y: 20 + r * s, width: s, height: s, fill: 'none', stroke: '#114411' }, svg);
      const ch = cells[i];
      if (ch === 'X' || ch === 'O') {
        el('circle', { class: 'piece', cx: 20 + c * s + s / 2, cy: 20 + r * s + s / 2, r: s * 0.4,
          fill: ch === 'X' ? '#111' : '#f5f5f5', stroke: '#000' }, svg);
      }
    }
    for (let c = 0; c < 8; c++) text(svg, 20 + c * s + s / 2, 14, 'abcdefgh'[c]);
    for (let r = 0; r < 8; r++) text(svg, 10, 20 + r * s + s / 2 + 4, String(r + 1));
    return 8 * s + 40;
  }

  // Quixo: rows joined by '/', a space, the side. X/O cubes (four players: x/o = dot to
  // member 2, X/O = member 1), '.' blank.
  function quixo(svg, pos) {
    const rows = pos.split(' ')[0].split('/');
    const n = rows.length, s = 64;
    const four = data.game === 'quixo-4p';
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const ch = rows[r][c];
        const x = 20 + c * s, y = 20 + r * s;
        const blank = ch === '.';
        el('rect', { class: blank ? 'cube' : 'cube piece', x: x + 3, y: y + 3, width: s - 6, height: s - 6, rx: 6,
          fill: '#f1e3c6', stroke: '#8a6d3b' }, svg);
        const up = ch ? ch.toUpperCase() : '.';
        if (up === 'X') {
          el('path', { d: `M${x + 16} ${y + 16} L${x + s - 16} ${y + s - 16} M${x + s - 16} ${y + 16} L${x + 16} ${y + s - 16}`,
            stroke: '#b71c1c', 'stroke-width': 6 }, svg);
        } else if (up === 'O') {
          el('circle', { cx: x + s / 2, cy: y + s / 2, r: s / 2 - 16, fill: 'none', stroke: '#0d47a1', 'stroke-width': 6 }, svg);
        }
        if (four && !blank) {
          // The dot: member 1 top-left, member 2 bottom-right.
          const m1 = ch === up;
          el('circle', { cx: m1 ? x + 12 : x + s - 12, cy: m1 ? y + 12 : y + s - 12, r: 4, fill: '#222' }, svg);
        }
      }
    }
    for (let c = 0; c < n; c++) text(svg, 20 + c * s + s / 2, 14, 'abcde'[c]);
    for (let r = 0; r < n; r++) text(svg, 10, 20 + r * s + s / 2 + 4, String(r + 1));
    return n * s + 40;
  }

  // Talat: "talat WG:<rows> GB:<rows> BW:<rows> taken:.. to:X phase:.. frozen:.. score:..";
  // a cell is '.' or a tower like H3 (upper case: the board's row-1 colour, lower: row 5).
  const COLOUR = { W: '#fafafa', G: '#9e9e9e', B: '#212121' };
  function towerShape(svg, cx, cy, shape, height, fill) {
    const rr = 6 + 4 * height;
    const sides = shape === 'T' ? 3 : shape === 'S' ? 4 : 6;
    const pts = [];
    for (let k = 0; k < sides; k++) {
      const a = -Math.PI / 2 + (sides === 4 ? Math.PI / 4 : 0) + 2 * Math.PI * k / sides;
      pts.push((cx + rr * Math.cos(a)).toFixed(1) + ',' + (cy + rr * Math.sin(a)).toFixed(1));
    }
    el('polygon', { class: 'piece', points: pts.join(' '), fill: fill, stroke: '#c62828', 'stroke-width': 1.5 }, svg);
    text(svg, cx, cy + 4, shape + height, { fill: fill === '#212121' ? '#fff' : '#000' });
  }
  function talat(svg, pos) {
    const fields = {};
    pos.split(/\s+/).forEach(f => { const i = f.indexOf(':'); if (i > 0) fields[f.slice(0, i)] = f.slice(i + 1); });
    const s = 40, names = ['WG', 'GB', 'BW'];
    const frozen = (fields.frozen || '-').split(',');
    names.forEach((name, b) => {
      const ox = 20 + b * (5 * s + 30), oy = 36;
      text(svg, ox + 2.5 * s, 24, name + (frozen.includes(name) ? ' (frozen)' : ''));
      const rows = (fields[name] || '').split('/');
      for (let r = 0; r < 5; r++) {
        const row = rows[r] || '';
        let c = 0;
        for (let i = 0; i < row.length && c < 5;) {
          const x = ox + c * s, y = oy + r * s;
          el('rect', { x: x, y: y, width: s, height: s, fill: frozen.includes(name) ? '#cfd8dc' : '#fff3e0', stroke: '#999' }, svg);
          const ch = row[i];
          if (ch === '.') { i += 1; c += 1; continue; }
          const shape = ch.toUpperCase(), height = Number(row[i + 1]);
          const owner = ch === shape ? name[0] : name[1];
          towerShape(svg, x + s / 2, y + s / 2, shape, height, COLOUR[owner]);
          i += 2; c += 1;
        }
        text(svg, ox - 8, oy + r * s + s / 2 + 4, String(r + 1));
      }
      for (let c = 0; c < 5; c++) text(svg, ox + c * s + s / 2, oy + 5 * s + 14, 'abcde'[c]);
    });
    text(svg, 20 + 1.5 * (5 * s + 30), oy_bottom(s), 'score ' + (fields.score || '') + '   to move ' + (fields.to || '') + '   ' + (fields.phase || ''));
    return 5 * s + 90;
  }
  function oy_bottom(s) { return 36 + 5 * s + 34; }

  function draw() {
    const pos = g.frames[ply];
    board.innerHTML = '';
    const svg = el('svg', { width: 760, height: 420 }, board);
    const h = data.game.startsWith('othello') ? othello(svg, pos)
      : data.game.startsWith('quixo') ? quixo(svg, pos) : talat(svg, pos);
    svg.setAttribute('height', h);
    slider.value = ply;
    info.textContent = `ply ${ply} of ${g.frames.length - 1}` + (ply > 0 ? ` — last move ${g.moves[ply - 1]}` : ' — start') +
      (ply === g.frames.length - 1 ? ` — ${g.result}` : '');
    list.querySelectorAll('span').forEach((sp, i) => sp.classList.toggle('cur', i + 1 === ply));
    shown.setAttribute('data-game', g.id);
    shown.setAttribute('data-ply', ply);
    shown.setAttribute('data-position', pos);
    shown.setAttribute('data-pieces', svg.querySelectorAll('.piece').length);
  }
  function load(i) {
    g = games[i];
    ply = 0;
    slider.max = g.frames.length - 1;
    list.innerHTML = '';
    g.moves.forEach((m, k) => {
      const sp = document.createElement('span');
      sp.textContent = (k + 1) + '.' + m;
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
  // #game=ID selects a game by record id; #final steps to its last position (tests).
  const hash = new URLSearchParams(location.hash.slice(1));
  let start = 0;
  if (hash.has('game')) {
    const k = games.findIndex(gm => String(gm.id) === hash.get('game'));
    if (k >= 0) start = k;
  }
  sel.value = start;
  load(start);
  if (hash.has('final')) { ply = g.frames.length - 1; draw(); }
})();
