// The board drawing shared by `tessera serve`'s page and the HTML reports' game viewer.
// It knows how each game's one-line position text looks and where its cells are; it knows
// no rules: the legal moves come from the Rust side as lists of click tokens (a cell such
// as "f5", "c1" or "WG:c1", or a choice such as the Quixo dot ">2" or a Talat tower kind
// "H3"), and a person's clicks pick among them.
//
// TesseraBoard.draw(container, game, position, opts) draws into `container` (emptied) and
// returns { svg, choices }: `choices` are the next tokens that have no place on the board
// (the caller shows them as buttons). opts (all optional):
//   legal:    [{ move, clicks }]  moves a person may make now
//   selected: [token]             tokens clicked so far
//   last:     [token]             the last move's tokens (marked)
//   marks:    [cell]              cells to highlight (a winning line)
//   scores:   [{ clicks, short, exact }] analysis, best first (shown on the board)
//   hint:     [token]             a suggested move's tokens (outlined)
//   flip:     bool                turn the board round
//   onToken:  function(token)     called when a person clicks a token
(function (root) {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';

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
  function startsWith(list, prefix) {
    if (list.length < prefix.length) return false;
    for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
    return true;
  }

  // The next tokens a person may click, each with the best analysis score of the moves it
  // leads to (scores come best first).
  function nextTokens(opts) {
    const sel = opts.selected || [];
    const out = new Map();
    (opts.legal || []).forEach(m => {
      if (m.clicks.length > sel.length && startsWith(m.clicks, sel)) {
        const t = m.clicks[sel.length];
        if (!out.has(t)) out.set(t, null);
      }
    });
    (opts.scores || []).forEach(s => {
      if (s.clicks.length > sel.length && startsWith(s.clicks, sel)) {
        const t = s.clicks[sel.length];
        if (out.has(t) && out.get(t) === null) out.set(t, s);
      }
    });
    return out;
  }

  // A clickable cell: the rectangle carries data-token; targets get class "target".
  function cell(svg, ctx, token, x, y, w, h, fill, stroke) {
    const r = el('rect', { x: x, y: y, width: w, height: h, fill: fill, stroke: stroke || '#333',
      'data-token': token, class: 'cell' }, svg);
    ctx.placed.add(token);
    const next = ctx.next.has(token);
    if (next) r.classList.add('target');
    if ((ctx.opts.selected || []).includes(token)) r.classList.add('selected');
    if (ctx.opts.onToken && (next || (ctx.opts.selected || []).includes(token))) {
      r.style.cursor = 'pointer';
      r.addEventListener('click', () => ctx.opts.onToken(token));
    }
    return r;
  }
  // Overlays on a cell after its piece is drawn: legal-move dot, last-move and hint marks,
  // winning-line outline, analysis score.
  function overlays(svg, ctx, token, x, y, w, h, dot) {
    const o = ctx.opts;
    if ((o.marks || []).includes(token)) {
      el('rect', { x: x + 2, y: y + 2, width: w - 4, height: h - 4, fill: 'none', stroke: '#00c853',
        'stroke-width': 4, class: 'mark', 'pointer-events': 'none' }, svg);
    }
    if ((o.hint || []).includes(token)) {
      el('rect', { x: x + 4, y: y + 4, width: w - 8, height: h - 8, fill: 'none', stroke: '#ff9800',
        'stroke-width': 3, 'stroke-dasharray': '5 3', class: 'hint', 'pointer-events': 'none' }, svg);
    }
    if ((o.last || []).includes(token)) {
      el('circle', { cx: x + w - 7, cy: y + 7, r: 4.5, fill: '#e53935', stroke: '#fff',
        class: 'last', 'pointer-events': 'none' }, svg);
    }
    if (ctx.next.has(token)) {
      const s = ctx.next.get(token);
      if (s) {
        text(svg, x + w / 2, y + h / 2 + 5, s.short, { class: 'score' + (s.exact ? ' exact' : ''),
          'pointer-events': 'none' });
      } else if (dot) {
        el('circle', { cx: x + w / 2, cy: y + h / 2, r: 5, class: 'dot', 'pointer-events': 'none' }, svg);
      }
    }
  }

  // Othello: "64 cells a1..h8 row by row (X, O, -), space, side".
  function othello(svg, pos, ctx) {
    const cells = pos.split(/\s+/)[0];
    const s = 48, m = 22;
    for (let i = 0; i < 64; i++) {
      const r = Math.floor(i / 8), c = i % 8;
      const vr = ctx.opts.flip ? 7 - r : r, vc = ctx.opts.flip ? 7 - c : c;
      const x = m + vc * s, y = m + vr * s;
      const token = 'abcdefgh'[c] + (r + 1);
      cell(svg, ctx, token, x, y, s, s, '#2e7d32', '#114411');
      const ch = cells[i];
      if (ch === 'X' || ch === 'O') {
        el('circle', { class: 'piece', cx: x + s / 2, cy: y + s / 2, r: s * 0.4,
          fill: ch === 'X' ? '#111' : '#f5f5f5', stroke: '#000', 'pointer-events': 'none' }, svg);
      }
      overlays(svg, ctx, token, x, y, s, s, true);
    }
    for (let k = 0; k < 8; k++) {
      const c = ctx.opts.flip ? 7 - k : k;
      text(svg, m + k * s + s / 2, 15, 'abcdefgh'[c]);
      text(svg, 10, m + k * s + s / 2 + 4, String(c + 1));
    }
    return [8 * s + 2 * m, 8 * s + 2 * m];
  }

  // Quixo: rows joined by '/', a space, the side. X/O cubes (four players: x/o = dot to
  // member 2, X/O = member 1), '.' blank.
  function quixo(svg, pos, ctx, four) {
    const rows = pos.split(/\s+/)[0].split('/');
    const n = rows.length, s = 64, m = 22;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const ch = rows[r][c];
        const vr = ctx.opts.flip ? n - 1 - r : r, vc = ctx.opts.flip ? n - 1 - c : c;
        const x = m + vc * s, y = m + vr * s;
        const token = 'abcde'[c] + (r + 1);
        const blank = ch === '.';
        el('rect', { x: x, y: y, width: s, height: s, fill: '#d7c4a0' }, svg);
        const cube = cell(svg, ctx, token, x + 3, y + 3, s - 6, s - 6, '#f1e3c6', '#8a6d3b');
        cube.setAttribute('rx', 6);
        if (!blank) cube.classList.add('piece');
        const up = ch ? ch.toUpperCase() : '.';
        if (up === 'X') {
          el('path', { d: `M${x + 18} ${y + 18} L${x + s - 18} ${y + s - 18} M${x + s - 18} ${y + 18} L${x + 18} ${y + s - 18}`,
            stroke: '#b71c1c', 'stroke-width': 6, 'pointer-events': 'none' }, svg);
        } else if (up === 'O') {
          el('circle', { cx: x + s / 2, cy: y + s / 2, r: s / 2 - 18, fill: 'none', stroke: '#0d47a1',
            'stroke-width': 6, 'pointer-events': 'none' }, svg);
        }
        if (four && !blank) {
          // The dot: member 1 top-left, member 2 bottom-right.
          const m1 = ch === up;
          el('circle', { cx: m1 ? x + 12 : x + s - 12, cy: m1 ? y + 12 : y + s - 12, r: 4, fill: '#222',
            'pointer-events': 'none' }, svg);
        }
        overlays(svg, ctx, token, x, y, s, s, false);
      }
    }
    for (let k = 0; k < n; k++) {
      const c = ctx.opts.flip ? n - 1 - k : k;
      text(svg, m + k * s + s / 2, 15, 'abcde'[c]);
      text(svg, 10, m + k * s + s / 2 + 4, String(c + 1));
    }
    return [n * s + 2 * m, n * s + 2 * m];
  }

  // Talat: "talat WG:<rows> GB:<rows> BW:<rows> taken:.. to:X phase:.. frozen:.. score:..";
  // a cell is '.' or a tower like H3 (upper case: the board's row-1 colour, lower: row 5).
  // Row 5 is drawn on top, as in the terminal diagram.
  const COLOUR = { W: '#fafafa', G: '#9e9e9e', B: '#212121' };
  function tower(svg, cx, cy, shape, height, fill, attrs) {
    const rr = 6 + 4 * height;
    const sides = shape === 'T' ? 3 : shape === 'S' ? 4 : 6;
    const pts = [];
    for (let k = 0; k < sides; k++) {
      const a = -Math.PI / 2 + (sides === 4 ? Math.PI / 4 : 0) + 2 * Math.PI * k / sides;
      pts.push((cx + rr * Math.cos(a)).toFixed(1) + ',' + (cy + rr * Math.sin(a)).toFixed(1));
    }
    el('polygon', Object.assign({ class: 'piece', points: pts.join(' '), fill: fill, stroke: '#c62828',
      'stroke-width': 1.5, 'pointer-events': 'none' }, attrs || {}), svg);
    text(svg, cx, cy + 4, shape + height, { fill: fill === '#212121' ? '#fff' : '#000', 'pointer-events': 'none' });
  }
  function talat(svg, pos, ctx) {
    const fields = {};
    pos.split(/\s+/).forEach(f => { const i = f.indexOf(':'); if (i > 0) fields[f.slice(0, i)] = f.slice(i + 1); });
    const s = 44, names = ['WG', 'GB', 'BW'], gap = 34, ox0 = 24, oy = 40;
    const frozen = (fields.frozen || '-').split(',');
    names.forEach((name, b) => {
      const ox = ox0 + b * (5 * s + gap);
      text(svg, ox + 2.5 * s, 18, name + ' (' + name[0] + ' row 1, ' + name[1] + ' row 5)' +
        (frozen.includes(name) ? ' frozen' : ''), { class: 'board-name' });
      const rows = (fields[name] || '').split('/');
      for (let r = 0; r < 5; r++) {
        const row = rows[r] || '';
        const vr = ctx.opts.flip ? r : 4 - r;
        let c = 0;
        for (let i = 0; c < 5;) {
          const vc = ctx.opts.flip ? 4 - c : c;
          const x = ox + vc * s, y = oy + vr * s;
          const token = name + ':' + 'abcde'[c] + (r + 1);
          cell(svg, ctx, token, x, y, s, s, frozen.includes(name) ? '#cfd8dc' : '#fff3e0', '#999');
          const ch = row[i];
          if (ch === undefined || ch === '.') {
            i += 1;
          } else {
            const shape = ch.toUpperCase(), height = Number(row[i + 1]);
            const owner = ch === shape ? name[0] : name[1];
            tower(svg, x + s / 2, y + s / 2, shape, height, COLOUR[owner]);
            i += 2;
          }
          overlays(svg, ctx, token, x, y, s, s, true);
          c += 1;
        }
        text(svg, ox - 9, oy + vr * s + s / 2 + 4, String(r + 1));
      }
      for (let k = 0; k < 5; k++) {
        const c = ctx.opts.flip ? 4 - k : k;
        text(svg, ox + k * s + s / 2, oy + 5 * s + 14, 'abcde'[c]);
      }
    });
    let h = oy + 5 * s + 30;
    // The towers still to place (setup): the kinds among the next tokens, as a tray.
    const kinds = [...ctx.next.keys()].filter(t => /^[TSH][123]$/.test(t));
    const chosen = (ctx.opts.selected || []).filter(t => /^[TSH][123]$/.test(t));
    const tray = kinds.concat(chosen.filter(k => !kinds.includes(k)));
    if (tray.length) {
      const mover = fields.to || 'W';
      text(svg, ox0 + 70, h + 22, 'to place:', { class: 'board-name' });
      tray.forEach((k, j) => {
        const x = ox0 + 130 + j * (s + 6), y = h;
        cell(svg, ctx, k, x, y, s, s, '#ede7f6', '#7e57c2');
        tower(svg, x + s / 2, y + s / 2, k[0], Number(k[1]), COLOUR[mover] || '#fafafa');
        overlays(svg, ctx, k, x, y, s, s, false);
      });
      h += s + 10;
    }
    text(svg, ox0 + 1.5 * (5 * s + gap), h + 14, 'points ' + (fields.score || '') + '   to move ' +
      (fields.to || '') + '   ' + (fields.phase || ''), { class: 'board-name' });
    return [ox0 + 3 * (5 * s + gap), h + 24];
  }

  function draw(container, game, position, opts) {
    opts = opts || {};
    container.innerHTML = '';
    const svg = el('svg', { class: 'tessera-board', 'data-game': game, 'data-position': position }, container);
    const ctx = { opts: opts, next: nextTokens(opts), placed: new Set() };
    const wh = game === 'othello' ? othello(svg, position, ctx)
      : game.startsWith('quixo') ? quixo(svg, position, ctx, game === 'quixo-4p')
        : talat(svg, position, ctx);
    svg.setAttribute('width', wh[0]);
    svg.setAttribute('height', wh[1]);
    svg.setAttribute('viewBox', '0 0 ' + wh[0] + ' ' + wh[1]);
    const choices = [...ctx.next.keys()].filter(t => !ctx.placed.has(t));
    return { svg: svg, choices: choices };
  }

  root.TesseraBoard = { draw: draw, nextTokens: nextTokens };
})(typeof window !== 'undefined' ? window : this);
