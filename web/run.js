// A training run's page: polls /api/run (trainer/run_page.h) and shows the
// generations with their Elo, the Elo and loss plots, the live figures,
// and the match games on a board to step through.
'use strict';

const POLL_MS = 3000;
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const svg = RenjuBoard.svg;

const state = {
  run: null,
  match: null,       // the /api/run/match answer shown
  matchKey: '',      // its name and game count, to fetch again on change
  game: null,        // the game shown
  ply: 0,
  view: null,
};

async function get(path) {
  const headers = {};
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const reply = await fetch(path, {headers});
  const json = await reply.json();
  if (!reply.ok) throw new Error(json.error || 'HTTP ' + reply.status);
  return json;
}

function fixed(x, digits) {
  return x === null || x === undefined ? '' : Number(x).toFixed(digits);
}

function ago(unixMs) {
  if (!unixMs) return '';
  const minutes = (Date.now() - unixMs) / 60000;
  if (minutes < 1) return 'just now';
  if (minutes < 120) return Math.round(minutes) + ' min ago';
  return (minutes / 60).toFixed(1) + ' h ago';
}

function fillTable(id, rows) {
  const body = $(id).querySelector('tbody');
  while (body.firstChild) body.removeChild(body.firstChild);
  for (const cells of rows) {
    const row = document.createElement('tr');
    for (const cell of cells) {
      const td = document.createElement('td');
      td.textContent = String(cell);
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

// --- Charts ------------------------------------------------------------------

// A line chart into `element`: `series` of {points: [[x, y], ...], errors
// (optional half-widths), cls}, dashed horizontal `lines` of {y, label}.
function drawChart(element, series, lines, xLabel) {
  while (element.firstChild) element.removeChild(element.firstChild);
  const W = 560, H = 300, left = 56, right = 16, top = 12, bottom = 40;
  const xs = [], ys = [];
  for (const s of series) {
    s.points.forEach(([x, y], i) => {
      xs.push(x);
      const e = s.errors ? s.errors[i] : 0;
      ys.push(y - e, y + e);
    });
  }
  for (const l of lines) ys.push(l.y);
  if (xs.length === 0) {
    svg('text', {class: 'empty', x: W / 2, y: H / 2}, element).textContent =
        'nothing yet';
    return;
  }
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  const pad = (y1 - y0) * 0.05;
  y0 -= pad; y1 += pad;
  const X = (x) => left + (x - x0) / (x1 - x0) * (W - left - right);
  const Y = (y) => H - bottom - (y - y0) / (y1 - y0) * (H - top - bottom);
  const axes = svg('g', {class: 'axes'}, element);
  svg('line', {x1: left, y1: H - bottom, x2: W - right, y2: H - bottom}, axes);
  svg('line', {x1: left, y1: top, x2: left, y2: H - bottom}, axes);
  const xTicks = new Set();
  for (let i = 0; i <= 4; ++i) {
    const y = y0 + (y1 - y0) * i / 4;
    svg('text', {class: 'tick y', x: left - 6, y: Y(y) + 4}, axes)
        .textContent = Math.abs(y1 - y0) >= 20 ? Math.round(y) : y.toFixed(2);
    // Generations and steps are whole numbers: ticks where they are.
    xTicks.add(Math.round(x0 + (x1 - x0) * i / 4));
  }
  for (const x of xTicks) {
    if (x < x0 || x > x1) continue;
    svg('text', {class: 'tick x', x: X(x), y: H - bottom + 16}, axes)
        .textContent = x;
  }
  svg('text', {class: 'tick x', x: (left + W - right) / 2, y: H - 4}, axes)
      .textContent = xLabel;
  for (const l of lines) {
    svg('line', {class: 'anchor-line', x1: left, y1: Y(l.y), x2: W - right,
                 y2: Y(l.y)}, element);
    svg('text', {class: 'anchor-label', x: W - right - 4, y: Y(l.y) - 4},
        element).textContent = l.label;
  }
  for (const s of series) {
    const g = svg('g', {class: 'series ' + s.cls}, element);
    svg('polyline', {
      points: s.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '),
    }, g);
    s.points.forEach(([x, y], i) => {
      if (s.errors) {
        svg('line', {class: 'error-bar', x1: X(x), y1: Y(y - s.errors[i]),
                     x2: X(x), y2: Y(y + s.errors[i])}, g);
      }
      if (s.dots) {
        svg('circle', {cx: X(x), cy: Y(y), r: 3.5, 'data-x': x}, g);
      }
    });
  }
}

// --- The run -----------------------------------------------------------------

function drawRun(run) {
  $('run-name').textContent = run.run;
  const live = run.live;
  if (live) {
    const rate = live.games_per_minute === null ? 'measuring' :
        live.games_per_minute.toFixed(1);
    $('live').textContent =
        `Live: ${live.total_games} games (${rate} a minute), ` +
        `training step ${live.training_step}, policy loss ` +
        `${fixed(live.policy_loss, 3)}, value loss ` +
        `${fixed(live.value_loss, 3)}, window ${live.window_positions} ` +
        `positions. Updated ${new Date().toLocaleTimeString()}.`;
  } else {
    $('live').textContent = 'A run folder read after the fact. Updated ' +
        new Date().toLocaleTimeString() + '.';
  }
  $('problems').textContent = run.problems.length ?
      'Could not read: ' + run.problems.join('; ') : '';

  // The status, and which gating rule decided it: the SPRT, or the
  // promote_score fallback when the SPRT did not decide.
  const decidedBy = (g) => ({
    sprt: `${g.status} (SPRT)`,
    promote_score: `${g.status} (fallback: promote_score)`,
    interrupted: `${g.status} (match interrupted)`,
  })[g.decided_by] || g.status;
  const gens = run.generations;
  fillTable('generations', gens.map((g) => [
    g.generation, fixed(g.elo, 0), fixed(g.elo_error, 0), g.games,
    g.games ? (100 * g.points / g.games).toFixed(1) + '%' : '',
    decidedBy(g),
    g.training_step, g.games_seen, fixed(g.games_per_minute, 1),
    ago(g.created_unix_ms),
  ]));
  $('unrated').textContent = run.unrated.length ?
      'Not rated yet: generation ' + run.unrated.join(', ') : '';
  $('anchors').hidden = run.anchors.length === 0;
  fillTable('anchors', run.anchors.map((a) => [
    a.name, fixed(a.elo, 0), a.fixed ? 'fixed' : fixed(a.elo_error, 0),
    a.games, a.games ? (100 * a.points / a.games).toFixed(1) + '%' : '',
  ]));
  drawChart($('elo-plot'), [{
    cls: 'elo', dots: true,
    points: gens.map((g) => [g.generation, g.elo]),
    errors: gens.map((g) => g.elo_error),
  }], run.anchors.map((a) => ({y: a.elo, label: a.name})), 'generation');
  drawChart($('loss-plot'), [
    {cls: 'policy', points: run.losses.map((l) => [l.step, l.policy_loss])},
    {cls: 'value', points: run.losses.map((l) => [l.step, l.value_loss])},
  ], [], 'step');
  drawMatchList(run.matches);
}

function drawMatchList(matches) {
  const select = $('match');
  const chosen = select.value;
  const names = matches.map((m) => `${m.name} (${m.games} games)`);
  const current = Array.from(select.options).map((o) => o.textContent);
  if (names.join('|') !== current.join('|')) {
    while (select.firstChild) select.removeChild(select.firstChild);
    for (const m of matches) {
      const option = document.createElement('option');
      option.value = m.name;
      option.textContent = `${m.name} (${m.games} games)`;
      select.appendChild(option);
    }
    // The newest rating match unless one was picked.
    if (matches.some((m) => m.name === chosen)) select.value = chosen;
  }
  const match = matches.find((m) => m.name === select.value);
  if (!match) return;
  const key = match.name + '/' + match.games;
  if (key !== state.matchKey) {
    state.matchKey = key;
    loadMatch(match.name);
  }
}

async function loadMatch(name) {
  try {
    const match = await get('/api/run/match?name=' + encodeURIComponent(name));
    state.match = match;
    const list = $('games');
    while (list.firstChild) list.removeChild(list.firstChild);
    match.games.forEach((game, i) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'game';
      button.dataset.index = game.index;
      button.textContent = `${game.black} (black) vs ${game.white}: ` +
          `${game.result === 'draw' ? 'draw' : game.result + ' wins'}, ` +
          `${game.end_reason}, ${game.moves.length} moves`;
      button.addEventListener('click', () => showGame(i, game.moves.length));
      item.appendChild(button);
      list.appendChild(item);
    });
    if (match.games.length > 0 && !state.game) showGame(0, 0);
  } catch (e) {
    $('error').textContent = e.message;
  }
}

// --- The replay --------------------------------------------------------------

function showGame(i, ply) {
  const game = state.match.games[i];
  state.game = game;
  if (!state.view || state.view.size !== game.size) {
    state.view = RenjuBoard.create($('board'), game.size, null);
  }
  $('ply').max = String(game.moves.length);
  setPly(ply);
}

function setPly(ply) {
  const game = state.game;
  if (!game) return;
  state.ply = Math.max(0, Math.min(game.moves.length, ply));
  $('ply').value = String(state.ply);
  state.view.drawStones(game.moves.slice(0, state.ply), true);
  const end = state.ply === game.moves.length ?
      ` ${game.result === 'draw' ? 'Draw' : game.result + ' wins'} by ` +
      `${game.end_reason}.` : '';
  $('game-info').textContent = `${state.match.name}, game ${game.index}: ` +
      `${game.black} black, ${game.white} white; move ${state.ply} of ` +
      `${game.moves.length}.${end}`;
}

// --- Start -------------------------------------------------------------------

async function poll() {
  try {
    const run = await get('/api/run');
    state.run = run;
    $('error').textContent = '';
    drawRun(run);
  } catch (e) {
    $('error').textContent = 'Cannot reach the run: ' + e.message;
  }
}

function start() {
  $('match').addEventListener('change', () => {
    state.game = null;
    state.matchKey = '';
    if (state.run) drawMatchList(state.run.matches);
  });
  $('first').addEventListener('click', () => setPly(0));
  $('back').addEventListener('click', () => setPly(state.ply - 1));
  $('forward').addEventListener('click', () => setPly(state.ply + 1));
  $('last').addEventListener('click', () => setPly(Infinity));
  $('ply').addEventListener('input', () => setPly(parseInt($('ply').value, 10)));
  poll();
  setInterval(poll, POLL_MS);
}

start();
