// tessera serve's page: asks the server for everything (legal moves, engine moves, scores)
// and draws with TesseraBoard (board.js). No rules here.
(function () {
  'use strict';
  const $ = id => document.getElementById(id);
  let games = [];          // from /api/games
  let state = null;        // the session's state
  let selected = [];       // tokens clicked towards a move
  let flip = false;
  let analysis = null;     // latest analysis update for this position
  let analysing = false;
  let hint = null;         // { position, clicks, text }
  let pv = null;           // { row, step } while stepping through a PV
  let events = null;       // EventSource of the session
  let epoch = 0;           // bumps with every new game (stops old engine loops)
  let busy = false;

  function showError(msg) {
    const e = $('error');
    if (msg) { e.textContent = msg; e.hidden = false; } else { e.textContent = ''; e.hidden = true; }
  }
  async function api(method, path, body) {
    const opts = { method: method, headers: {} };
    if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
    let r;
    try { r = await fetch(path, opts); } catch (e) { throw new Error('the server does not answer (' + e.message + ')'); }
    const v = await r.json().catch(() => ({ error: 'bad answer from the server (' + r.status + ')' }));
    if (!r.ok) { const err = new Error(v.error || ('HTTP ' + r.status)); err.status = r.status; throw err; }
    return v;
  }
  function sessionBody(extra) {
    return Object.assign({ id: state.id, game: state.game }, extra || {});
  }

  // ---- setup -------------------------------------------------------------------------
  function gameInfo(id) { return games.find(g => g.id === id); }
  function fillSeats() {
    const g = gameInfo($('game').value);
    const box = $('seats');
    box.innerHTML = '';
    g.seats.forEach((name, i) => {
      const lab = document.createElement('label');
      lab.textContent = name + ' ';
      const sel = document.createElement('select');
      sel.id = 'seat-' + i;
      const opt = (v, t) => { const o = document.createElement('option'); o.value = v; o.textContent = t; sel.appendChild(o); };
      opt('human', 'person');
      for (let l = 1; l <= g.levels; l++) opt('level-' + l, 'tessera level ' + l);
      g.presets.forEach(p => opt(p, 'preset ' + p));
      sel.value = i === 0 ? 'human' : 'level-2';
      lab.appendChild(sel);
      box.appendChild(lab);
    });
    $('ggf-row').hidden = g.id !== 'othello';
    $('help').textContent = g.help;
  }
  async function newGame() {
    const g = $('game').value;
    const players = gameInfo(g).seats.map((_, i) => $('seat-' + i).value);
    const body = { game: g, players: players };
    const start = $('start').value.trim();
    const ggf = g === 'othello' ? $('ggf').value.trim() : '';
    if (start) body.start = start;
    if (ggf) body.ggf = ggf;
    try {
      const s = await api('POST', '/api/new', body);
      epoch += 1;
      stopAnalysisLocal();
      if (events) events.close();
      events = new EventSource('/api/events?id=' + s.id);
      events.addEventListener('analysis', ev => onAnalysis(JSON.parse(ev.data)));
      showError('');
      setState(s);
    } catch (e) { showError(e.message); }
  }

  // ---- state and drawing -------------------------------------------------------------
  function setState(s) {
    state = s;
    selected = [];
    hint = null;
    pv = null;
    if (analysis && analysis.position !== s.position) analysis = null;
    render();
    if (analysing && !s.over && !analysis) startAnalysis();
    maybeEngine();
  }
  function scoresForBoard() {
    return analysis && analysis.moves && analysis.position === state.position ? analysis.moves : [];
  }
  function render() {
    if (!state) return;
    const s = state;
    let position = s.position, last = s.last, legal = s.human_to_move ? s.legal : [], marks = s.marks;
    if (pv) {
      const row = analysis.moves[pv.row];
      position = pv.step === 0 ? s.position : row.pv_positions[pv.step - 1];
      last = pv.step === 0 ? s.last : row.pv_clicks[pv.step - 1];
      legal = []; marks = [];
      $('pv-info').textContent = 'line of ' + row.move + ': ply ' + pv.step + ' of ' + row.pv.length +
        (pv.step ? ' (' + row.pv.slice(0, pv.step).join(' ') + ')' : '');
    }
    $('pv-bar').hidden = !pv;
    const drawn = TesseraBoard.draw($('board'), s.game, position, {
      legal: legal, selected: selected, last: last, marks: marks, flip: flip,
      scores: pv ? [] : scoresForBoard(),
      hint: hint && hint.position === s.position && !pv ? hint.clicks : [],
      onToken: pv ? null : onToken,
    });
    const ch = $('choices');
    ch.innerHTML = '';
    drawn.choices.forEach(t => {
      const b = document.createElement('button');
      b.textContent = t.startsWith('>') ? 'dot to member ' + t.slice(1) : t;
      b.dataset.token = t;
      b.onclick = () => onToken(t);
      ch.appendChild(b);
    });
    if (selected.length) {
      const b = document.createElement('button');
      b.textContent = 'cancel';
      b.onclick = () => { selected = []; render(); };
      ch.appendChild(b);
    }
    const seat = s.seats[s.to_move];
    $('status').textContent = s.over ? 'Game over' :
      s.to_move_name + ' to move (' + (seat.player === 'human' ? 'a person' : seat.player + ', thinking…') + ')';
    $('result').textContent = s.result || '';
    $('note').textContent = s.note || '';
    $('counts').innerHTML = s.counts.map(c => '<tr><td>' + esc(c.label) + '</td><td>' + c.value + '</td></tr>').join('');
    $('hint-text').textContent = hint && hint.position === s.position ? 'Hint: ' + hint.move + ' (' + hint.text + ')' : '';
    const ml = $('movelist');
    ml.innerHTML = '';
    s.moves.forEach((m, i) => {
      const sp = document.createElement('span');
      sp.textContent = (i + 1) + '.' + m;
      if (i + 1 === s.ply) sp.className = 'cur';
      ml.appendChild(sp);
      ml.appendChild(document.createTextNode(' '));
    });
    ml.scrollTop = ml.scrollHeight;
    $('record').value = s.record;
    $('record-ggf').hidden = !s.ggf;
    $('record-ggf').value = s.ggf || '';
    $('undo').disabled = !s.can_undo;
    $('redo').disabled = !s.can_redo;
    $('hint').disabled = s.over || !s.human_to_move;
    $('analyze').disabled = s.over || !s.analysable;
    $('stop').disabled = !analysing;
    $('continue').disabled = analysing || !analysis || analysis.done || analysis.position !== s.position;
    renderAnalysis();
    const sh = $('shown');
    sh.dataset.game = s.game;
    sh.dataset.ply = s.ply;
    sh.dataset.position = s.position;
    sh.dataset.over = s.over;
    sh.dataset.result = s.result || '';
    sh.dataset.humanToMove = s.human_to_move;
    sh.dataset.legal = s.legal.length;
  }
  function esc(t) { return String(t).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

  async function onToken(t) {
    if (!state || !state.human_to_move || busy) return;
    const i = selected.indexOf(t);
    if (i >= 0) { selected = selected.slice(0, i); render(); return; }
    const next = selected.concat([t]);
    const matches = state.legal.filter(m => m.clicks.length >= next.length && next.every((x, k) => m.clicks[k] === x));
    if (matches.length === 0) return;
    const done = matches.find(m => m.clicks.length === next.length);
    if (done && matches.length === 1) { await play(done.move); return; }
    selected = next;
    render();
  }
  async function play(move) {
    busy = true;
    try { const s = await api('POST', '/api/move', sessionBody({ move: move })); showError(''); setState(s); }
    catch (e) { showError(e.message); selected = []; render(); }
    finally { busy = false; }
    maybeEngine();
  }
  async function maybeEngine() {
    if (!state || state.over || state.human_to_move || busy) return;
    const mine = epoch;
    busy = true;
    let s = null;
    try { s = await api('POST', '/api/engine', sessionBody()); }
    catch (e) { if (mine === epoch) showError(e.message); }
    busy = false;
    if (s && mine === epoch) { showError(''); setState(s); }
  }
  async function simple(path) {
    if (!state || busy) return;
    try { const s = await api('POST', path, sessionBody()); showError(''); setState(s); }
    catch (e) { showError(e.message); }
  }

  // ---- hint and analysis -------------------------------------------------------------
  async function askHint() {
    if (!state) return;
    $('hint-text').textContent = 'thinking…';
    try { hint = await api('POST', '/api/hint', sessionBody()); showError(''); render(); }
    catch (e) { showError(e.message); $('hint-text').textContent = ''; }
  }
  function stopAnalysisLocal() { analysing = false; analysis = null; }
  // Starts the analysis from level 1, or (cont) from the level after the one shown.
  async function startAnalysis(cont) {
    const from = cont === true && analysis ? analysis.level + 1 : 1;
    analysing = true;
    if (from === 1) analysis = null;
    $('analysis-info').textContent = 'starting…';
    try { await api('POST', '/api/analyze', sessionBody({ on: true, from: from })); showError(''); }
    catch (e) { analysing = false; showError(e.message); }
    render();
  }
  async function stopAnalysis() {
    analysing = false;
    try { await api('POST', '/api/analyze', sessionBody({ on: false })); } catch (e) { showError(e.message); }
    render();
  }
  function onAnalysis(a) {
    if (!state || a.position !== state.position) return;
    if (a.error) { showError(a.error); analysing = false; render(); return; }
    analysis = a;
    if (a.done) analysing = false;
    render();
  }
  function renderAnalysis() {
    const t = $('analysis');
    const a = analysis && state && analysis.position === state.position ? analysis : null;
    $('analysis-info').textContent = a ? 'level ' + a.level + (a.done ? ' (done)' : analysing ? ' (deepening…)' : ' (stopped)') :
      analysing ? 'searching…' : '';
    t.innerHTML = '';
    if (!a) return;
    const head = t.insertRow();
    head.innerHTML = '<th>move</th><th>score</th><th>depth</th><th>line</th>';
    a.moves.forEach((m, i) => {
      const r = t.insertRow();
      r.dataset.move = m.move;
      r.dataset.exact = m.exact;
      if (pv && pv.row === i) r.className = 'cur';
      r.innerHTML = '<td>' + esc(m.move) + '</td><td class="' + (m.exact ? 'exact' : '') + '" title="' + esc(m.text) + '">' +
        esc(m.short) + (m.exact ? ' exact' : '') + '</td><td>' + m.depth + '</td><td>' + esc(m.pv.slice(0, 8).join(' ')) + '</td>';
      r.onclick = () => { pv = { row: i, step: 1 }; render(); };
    });
  }

  // ---- watch -------------------------------------------------------------------------
  let watch = { folder: 0, games: [], game: 0, ply: 0, timer: null };
  async function loadWatch(reset) {
    if (reset) { watch.games = []; watch.game = 0; watch.ply = 0; }
    try {
      const v = await api('GET', '/api/watch?dir=' + watch.folder + '&since=' + watch.games.length);
      const grew = v.games.length > 0;
      watch.games = watch.games.concat(v.games);
      const sel = $('watch-game');
      v.games.forEach((g, k) => {
        const o = document.createElement('option');
        o.value = watch.games.length - v.games.length + k;
        o.textContent = g.title + ' — ' + g.result;
        sel.appendChild(o);
      });
      if (reset && watch.games.length) showWatchGame(0);
      else if (grew && $('watch-live').checked) showWatchGame(watch.games.length - 1);
      $('w-info').dataset.total = watch.games.length;
      if (!watch.games.length) $('w-info').textContent = 'no games yet in ' + v.folder;
      showError('');
    } catch (e) { showError(e.message); }
  }
  function showWatchGame(i) {
    watch.game = i;
    $('watch-game').value = i;
    const g = watch.games[i];
    watch.ply = g.frames.length - 1;
    $('w-slider').max = g.frames.length - 1;
    const list = $('w-moves');
    list.innerHTML = '';
    g.moves.forEach((m, k) => {
      const sp = document.createElement('span');
      sp.textContent = (k + 1) + '.' + m;
      if (k < g.opening) sp.className = 'opening';
      sp.onclick = () => { watch.ply = k + 1; drawWatch(); };
      list.appendChild(sp);
      list.appendChild(document.createTextNode(' '));
    });
    drawWatch();
  }
  function drawWatch() {
    const g = watch.games[watch.game];
    if (!g) return;
    const f = g.frames[watch.ply];
    const final = watch.ply === g.frames.length - 1;
    TesseraBoard.draw($('w-board'), g.game, f.position, {
      last: f.last, marks: final ? g.marks : [], flip: flip,
      legal: (f.next || []).map(t => ({ move: t, clicks: [t] })),
    });
    $('w-slider').value = watch.ply;
    $('w-info').textContent = 'ply ' + watch.ply + ' of ' + (g.frames.length - 1) +
      (watch.ply > 0 ? ' — last move ' + g.moves[watch.ply - 1] : ' — start') + (final ? ' — ' + g.result : '');
    $('w-counts').innerHTML = f.counts.map(c => '<tr><td>' + esc(c.label) + '</td><td>' + c.value + '</td></tr>').join('');
    $('w-moves').querySelectorAll('span').forEach((sp, k) => sp.classList.toggle('cur', k + 1 === watch.ply));
  }

  // ---- wiring ------------------------------------------------------------------------
  function tab(which) {
    $('play').hidden = which !== 'play';
    $('watch').hidden = which !== 'watch';
    $('tab-play').classList.toggle('on', which === 'play');
    $('tab-watch').classList.toggle('on', which === 'watch');
    if (which === 'watch' && !watch.timer) {
      loadWatch(true);
      watch.timer = setInterval(() => { if (!$('watch').hidden) loadWatch(false); }, 2000);
    }
  }
  async function init() {
    const v = await api('GET', '/api/games');
    games = v.games;
    games.forEach(g => { const o = document.createElement('option'); o.value = g.id; o.textContent = g.id; $('game').appendChild(o); });
    v.watch.forEach((d, i) => { const o = document.createElement('option'); o.value = i; o.textContent = d; $('watch-folder').appendChild(o); });
    $('tab-watch').disabled = v.watch.length === 0;
    $('tab-watch').title = v.watch.length ? '' : 'start tessera serve with --watch DIR to replay a tournament';
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has('game') && gameInfo(params.get('game'))) $('game').value = params.get('game');
    fillSeats();
    $('game').onchange = fillSeats;
    $('new').onclick = newGame;
    $('undo').onclick = () => simple('/api/undo');
    $('redo').onclick = () => simple('/api/redo');
    $('hint').onclick = askHint;
    $('flip').onclick = () => { flip = !flip; render(); drawWatch(); };
    $('analyze').onclick = () => startAnalysis(false);
    $('continue').onclick = () => startAnalysis(true);
    $('stop').onclick = stopAnalysis;
    $('pv-prev').onclick = () => { if (pv && pv.step > 0) { pv.step -= 1; render(); } };
    $('pv-next').onclick = () => { if (pv && pv.step < analysis.moves[pv.row].pv.length) { pv.step += 1; render(); } };
    $('pv-exit').onclick = () => { pv = null; render(); };
    $('tab-play').onclick = () => tab('play');
    $('tab-watch').onclick = () => tab('watch');
    $('watch-folder').onchange = () => { watch.folder = Number($('watch-folder').value); $('watch-game').innerHTML = ''; loadWatch(true); };
    $('watch-game').onchange = () => showWatchGame(Number($('watch-game').value));
    $('w-first').onclick = () => { watch.ply = 0; drawWatch(); };
    $('w-prev').onclick = () => { watch.ply = Math.max(0, watch.ply - 1); drawWatch(); };
    $('w-next').onclick = () => { const g = watch.games[watch.game]; if (g) { watch.ply = Math.min(g.frames.length - 1, watch.ply + 1); drawWatch(); } };
    $('w-last').onclick = () => { const g = watch.games[watch.game]; if (g) { watch.ply = g.frames.length - 1; drawWatch(); } };
    $('w-slider').oninput = () => { watch.ply = Number($('w-slider').value); drawWatch(); };
    if (params.has('watch')) tab('watch'); else await newGame();
  }
  window.tessera = { state: () => state, analysis: () => analysis, onToken: onToken, newGame: newGame };
  init().catch(e => showError(e.message));
})();
