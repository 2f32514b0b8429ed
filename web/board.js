// The board page's logic: the served board size's SVG board
// (board_view.js), a game against the served model, and the model's
// candidates. Every rule question (whose turn, forbidden points, the end of
// the game and why, a forbidden move's loss included) is answered by the
// server's /api/position; the model's moves come from /api/suggest
// (inference/http_api.h). Under an opening rule (RIF, Taraguchi-10, swap2,
// ...) the page first plays the opening's actions, which the server replays
// and checks; the model advises on the next action when asked. Record files
// are read and written by the server (/api/records, /api/records/save:
// records/record_api.h), so the files are those `renju replay` reads.
'use strict';

const CELL = 36;
const FORBIDDEN_LABELS = {
  'double-three': '3-3', 'double-four': '4-4', 'overline': '6+',
};
const DECIDED_BY = {
  'win-in-one': 'Five found',
  'vcf': 'VCF found',
  'vct': 'VCT found',
  'block-five': 'Forced: blocks a five',
  'defend-vcf': 'Forced: defends a VCF',
  'defend-vct': 'Forced: defends a VCT',
  'lost-to-five': 'Lost: the opponent has a five',
};

// The page's state. `position` is the server's last /api/position answer
// for `moves`; `view` the board drawn for its size.
const state = {
  moves: [],
  position: null,
  suggestion: null,
  busy: false,
  generation: 0,  // bumped on every change, so stale answers are dropped
  view: null,
  analysis: null,  // {key: the game analysed, values: [{ply, value, best}]}
  records: [],     // the games of the last file opened (/api/records)
  // Under an opening rule: {rule, actions: ['Place(h8)', 'Swap', ...],
  // info: the server's "opening" answer, stones: how many it placed,
// advice: the model's or null,
  // picks: the points chosen so far for an offer of 5th moves}.
  opening: null,
};

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get('token');

// --- The server ------------------------------------------------------------

async function api(path, body) {
  const headers = {'Content-Type': 'application/json'};
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const reply = await fetch(path, {
    method: 'POST', headers, body: JSON.stringify(body),
  });
  const json = await reply.json();
  if (!reply.ok) {
    const field = json.field ? json.field + ': ' : '';
    throw new Error(field + (json.error || 'HTTP ' + reply.status));
  }
  return json;
}

function rule() { return $('rule').value; }
function openingRule() { return $('opening-rule').value; }
// True while the opening's actions are still being played.
function inOpening() { return state.opening && !state.opening.info.done; }
// The search budget per move: {visits: n} or {time_ms: n}.
function budget() {
  const amount = Math.max(1, parseInt($('visits').value, 10) || 1);
  return {[$('budget-unit').value]: amount};
}
function movesText(moves) { return moves.join(' '); }

// --- Drawing ---------------------------------------------------------------

const svg = RenjuBoard.svg;
function pointXY(name) { return state.view.pointXY(name); }
function clear(layer) { return state.view.clear(layer); }

// The board, drawn again only when the served size changes.
function ensureBoard(size) {
  if (state.view && state.view.size === size) return;
  state.view = RenjuBoard.create($('board'), size, onPointClick);
}

function drawStones() { state.view.drawStones(state.moves, false); }

// Black's forbidden points, while black is to move (the server lists them
// only then).
function drawForbidden() {
  const layer = clear('marks');
  if (!state.position) return;
  for (const f of state.position.forbidden) {
    const [x, y] = pointXY(f.point);
    const mark = svg('g', {
      class: 'forbidden', 'data-point': f.point, 'data-kind': f.kind,
    }, layer);
    const d = CELL * 0.22;
    svg('line', {x1: x - d, y1: y - d, x2: x + d, y2: y + d}, mark);
    svg('line', {x1: x - d, y1: y + d, x2: x + d, y2: y - d}, mark);
    svg('text', {x: x, y: y + CELL * 0.46}, mark).textContent =
        FORBIDDEN_LABELS[f.kind] || f.kind;
    svg('title', {}, mark).textContent = 'forbidden for black: ' + f.kind;
  }
}

function percent(p) { return Math.round(100 * p) + '%'; }

// The model's candidates on empty points: visits and win rate, the line on
// hover.
function drawCandidates() {
  const layer = clear('candidates-layer');
  clear('pv-layer');
  const s = state.suggestion;
  if (!s) return;
  const occupied = new Set(state.moves);
  s.candidates.forEach((c, i) => {
    if (c.move === 'pass' || occupied.has(c.move)) return;
    const [x, y] = pointXY(c.move);
    const group = svg('g', {
      class: 'candidate' + (i === 0 ? ' best' : ''), 'data-point': c.move,
    }, layer);
    svg('circle', {cx: x, cy: y, r: CELL * 0.45}, group);
    svg('text', {x: x, y: y - 2}, group).textContent = String(c.visits);
    svg('text', {x: x, y: y + 9}, group).textContent = percent(c.win);
    svg('title', {}, group).textContent =
        `${c.move}: ${c.visits} visits, win ${percent(c.win)}, draw ` +
        `${percent(c.draw)}, loss ${percent(c.loss)}; line ${c.pv.join(' ')}`;
    group.addEventListener('mouseenter', () => drawLine(c.pv, s.ply));
    group.addEventListener('mouseleave', () => clear('pv-layer'));
    group.addEventListener('click', () => onPointClick(c.move));
  });
}

// A principal variation as numbered ghost stones; `ply` is the number of
// moves before its first.
function drawLine(pv, ply) {
  const layer = clear('pv-layer');
  pv.forEach((move, i) => {
    if (move === 'pass') return;
    const [x, y] = pointXY(move);
    const color = (ply + i) % 2 === 0 ? 'black' : 'white';
    const group = svg('g', {class: 'pv'}, layer);
    svg('circle', {class: color, cx: x, cy: y, r: CELL * 0.45}, group);
    svg('text', {class: color, x: x, y: y + 4}, group).textContent =
        String(i + 1);
  });
}

function drawModelPanel() {
  const s = state.suggestion;
  const body = $('candidates').querySelector('tbody');
  while (body.firstChild) body.removeChild(body.firstChild);
  if (!s) {
    $('model-summary').textContent = 'No search yet.';
    $('decided-by').textContent = '';
    return;
  }
  const mover = s.to_move;
  $('model-summary').textContent =
      `Best for ${mover} after move ${s.ply}: ${s.best_move} ` +
      `(win ${percent(s.win)}, draw ${percent(s.draw)}, ` +
      `loss ${percent(s.loss)}; ${s.visits} visits, generation ` +
      `${s.model_generation})`;
  $('decided-by').textContent = DECIDED_BY[s.decided_by] || '';
  for (const c of s.candidates) {
    const row = document.createElement('tr');
    for (const cell of [c.move, c.visits, percent(c.win), percent(c.draw),
                        percent(c.loss), c.pv.join(' ')]) {
      const td = document.createElement('td');
      td.textContent = String(cell);
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

const RESULT_TEXT = {black: 'Black wins', white: 'White wins', draw: 'Draw'};
const REASON_TEXT = {
  'five': 'five in a row',
  'full board': 'the board is full',
  'two passes': 'both sides passed',
  'no five possible': 'neither side can make five any more',
};

function statusText() {
  const p = state.position;
  if (!p) return '';
  if (p.forbidden_move) {
    const f = p.forbidden_move;
    return `${RESULT_TEXT[p.result]}: black played ${f.point}, a forbidden ` +
        `point (${f.kind}).`;
  }
  if (p.result !== 'ongoing') {
    return `${RESULT_TEXT[p.result]}: ` +
        `${REASON_TEXT[p.end_reason] || p.end_reason}.`;
  }
  if (inOpening()) {
    const o = state.opening.info;
    const acting = `The ${o.to_act} player (${o.color})`;
    if (state.busy) return `${acting}: the model is thinking...`;
    return `Opening: ${acting} acts.`;
  }
  const toMove = p.to_move === 'black' ? 'Black' : 'White';
  if (state.busy) return `${toMove} to move: the model is thinking...`;
  return `${toMove} to move (move ${p.ply + 1}).`;
}

// The offered 5th moves (rings) and the points picked for an offer.
function drawOpeningMarks() {
  if (!inOpening()) return;
  const layer = state.view.clear('candidates-layer');
  const o = state.opening;
  for (const [points, cls] of [[o.info.offered, 'offered'],
                               [o.picks, 'picked']]) {
    for (const point of points) {
      const [x, y] = pointXY(point);
      const group = svg('g', {class: cls, 'data-point': point}, layer);
      svg('circle', {cx: x, cy: y, r: CELL * 0.4}, group);
    }
  }
  const advice = o.advice;
  if (!advice) return;
  for (const point of advice.points) {
    if (state.moves.includes(point)) continue;
    const [x, y] = pointXY(point);
    const group = svg('g', {class: 'candidate best advice',
                            'data-point': point}, layer);
    svg('circle', {cx: x, cy: y, r: CELL * 0.3}, group);
    svg('title', {}, group).textContent = 'the model: ' + advice.action;
    group.addEventListener('click', () => onPointClick(point));
  }
}

// An expected score (win + draw / 2) from a score of win - loss.
function expected(score) { return percent((1 + score) / 2); }

function adviceText(a) {
  const who = `The ${a.player} player (${a.color}) should take ${a.action}`;
  const end = `; ${a.visits} visits, generation ${a.model_generation}.`;
  if (a.kind === 'Swap' || a.kind === 'KeepColours') {
    return `${who}: as black it expects ${expected(a.black_score)}, as ` +
        `white ${expected(-a.black_score)}` + end;
  }
  if (a.candidates.length > 0) {
    return `${who}: it expects ${expected(a.value)} after it` + end;
  }
  return who + end;
}

function drawOpeningPanel() {
  const panel = $('opening-panel');
  panel.hidden = !state.opening;
  if (!state.opening) return;
  const o = state.opening;
  const info = o.info;
  let expectation = info.done ? 'The opening is over: play on.' :
      info.expectation + '.';
  if (!info.done && info.allows.includes('OfferFifth')) {
    expectation += ` Click ${info.offer_count} points` +
        (o.picks.length ? ` (chosen: ${o.picks.join(' ')})` : '') + '.';
  }
  $('opening-expectation').textContent = expectation;
  $('opening-actions').textContent = o.actions.length ?
      'Actions: ' + o.actions.join(' ') : 'No actions yet.';
  const allows = info.done ? [] : info.allows;
  $('opening-swap').hidden = !allows.includes('Swap');
  $('opening-keep').hidden = !allows.includes('KeepColours');
  $('opening-declare-label').hidden = !allows.includes('DeclareCount');
  $('opening-take-advice').hidden = !o.advice || info.done;
  $('opening-advice').textContent = o.advice ? adviceText(o.advice) : '';
  $('opening-candidates').hidden =
      !o.advice || o.advice.candidates.length === 0;
  const body = $('opening-candidates').querySelector('tbody');
  while (body.firstChild) body.removeChild(body.firstChild);
  for (const c of o.advice ? o.advice.candidates : []) {
    const row = document.createElement('tr');
    for (const cell of [c.point, expected(c.black_score)]) {
      const td = document.createElement('td');
      td.textContent = cell;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

function draw() {
  if (!state.view) return;
  drawStones();
  drawForbidden();
  drawCandidates();
  drawOpeningMarks();
  drawModelPanel();
  drawOpeningPanel();
  $('status').textContent = statusText();
  $('moves').value = movesText(state.moves);
  for (const id of ['new-game', 'undo', 'pass', 'analyse', 'load',
                    'opening-swap', 'opening-keep', 'opening-declare',
                    'opening-take-advice']) {
    $(id).disabled = state.busy;
  }
  $('pass').disabled = state.busy || inOpening();
}

function showError(message) { $('error').textContent = message || ''; }

// --- The game --------------------------------------------------------------

function gameOver() {
  return state.position && state.position.result !== 'ongoing';
}

// During an opening the user takes every action and the model only
// advises; "You play" applies from the end of the opening on.
function modelToMove() {
  const human = $('human').value;
  return human !== 'both' && state.position && !inOpening() &&
      state.position.to_move !== human;
}

// Asks the server about `moves`, makes them the game, and lets the model
// move when it is its turn.
async function setMoves(moves) {
  const generation = ++state.generation;
  state.busy = false;  // a search in flight is for another position now
  showError('');
  try {
    const position = await api('/api/position',
                               {moves: movesText(moves), rule: rule()});
    if (generation !== state.generation) return;
    ensureBoard(position.size);
    state.moves = position.moves;
    state.position = position;
  } catch (e) {
    if (generation === state.generation) showError(e.message);
    return;
  }
  draw();
  if (!gameOver() && modelToMove()) await modelMove();
}

// Asks the server to replay `actions` under the opening rule and makes them
// the game; a refused action leaves the game as it was, and the error names
// it. Once the opening is over, play goes on from its stones, or from a
// loaded record's `recordMoves` (which start with those stones).
async function setOpening(actions, recordMoves) {
  const generation = ++state.generation;
  state.busy = false;
  showError('');
  try {
    const position = await api('/api/position', {
      rule: rule(), opening_rule: openingRule(),
      opening_actions: actions.join(' '),
    });
    if (generation !== state.generation) return;
    ensureBoard(position.size);
    state.opening = {rule: openingRule(), actions, info: position.opening,
                     stones: position.moves.length, advice: null, picks: []};
    state.moves = position.moves;
    state.position = position;
    state.suggestion = null;
  } catch (e) {
    if (generation === state.generation) {
      showError(e.message);
      if (state.opening) state.opening.picks = [];
      draw();
    }
    return;
  }
  if (recordMoves && recordMoves.length > state.moves.length) {
    const stones = state.moves;
    if (!state.opening.info.done ||
        stones.some((stone, i) => recordMoves[i] !== stone)) {
      draw();
      showError('The record\'s moves do not follow its opening (' +
                stones.join(' ') + '): showing the opening only.');
      return;
    }
    await setMoves(recordMoves);
    return;
  }
  draw();
  if (!gameOver() && modelToMove()) await modelMove();
}

function takeOpeningAction(action) {
  if (state.busy || !inOpening()) return;
  setOpening(state.opening.actions.concat([action]));
}

// The model's advice on the opening's next action.
async function adviseOpening() {
  const generation = ++state.generation;
  state.busy = true;
  draw();
  try {
    const s = await api('/api/suggest', {
      rule: rule(), opening_rule: state.opening.rule,
      opening_actions: state.opening.actions.join(' '), ...budget(),
    });
    if (generation !== state.generation) return;
    state.opening.advice = s.opening.advice;
  } catch (e) {
    if (generation === state.generation) showError(e.message);
  }
  if (generation === state.generation) state.busy = false;
  draw();
}

// One search of the current position: the candidates for the page, and
// the model's move when `play`.
async function search(play) {
  const generation = ++state.generation;
  state.busy = true;
  draw();
  try {
    const s = await api('/api/suggest',
                        {moves: movesText(state.moves), rule: rule(),
                         ...budget()});
    if (generation !== state.generation) return;
    state.suggestion = s;
    state.busy = false;
    if (play) {
      await setMoves(state.moves.concat([s.best_move]));
      return;
    }
  } catch (e) {
    if (generation === state.generation) showError(e.message);
  }
  if (generation === state.generation) state.busy = false;
  draw();
}

function modelMove() { return search(true); }

// A click during the opening: the stone the rule asks for, a point of an
// offer of 5th moves (sent once there are enough), or the offered 5th move
// kept.
function onOpeningClick(name) {
  const o = state.opening;
  const allows = o.info.allows;
  if (allows.includes('ChooseFifth') && o.info.offered.includes(name)) {
    takeOpeningAction(`ChooseFifth(${name})`);
  } else if (allows.includes('OfferFifth')) {
    if (state.moves.includes(name)) return;
    const i = o.picks.indexOf(name);
    if (i >= 0) o.picks.splice(i, 1); else o.picks.push(name);
    if (o.picks.length === o.info.offer_count) {
      takeOpeningAction(`OfferFifth(${o.picks.join(' ')})`);
    } else {
      draw();
    }
  } else if (allows.includes('Place')) {
    if (state.moves.includes(name)) return;
    takeOpeningAction(`Place(${name})`);
  } else {
    showError(o.info.expectation + ': use the buttons.');
  }
}

function onPointClick(name) {
  if (state.busy) return;
  if (inOpening()) {
    onOpeningClick(name);
    return;
  }
  if (gameOver() || modelToMove()) return;
  if (state.moves.includes(name)) return;
  // A forbidden point is legal to play and loses at once (RULES.md §4);
  // the server says so.
  state.suggestion = null;
  setMoves(state.moves.concat([name]));
}

// Takes back to the last position where the human is to move.
// In an opening, or back into one, takes back its last action.
function undo() {
  if (state.busy) return;
  if (state.opening &&
      (inOpening() || state.moves.length <= state.opening.stones)) {
    if (state.opening.actions.length > 0) {
      setOpening(state.opening.actions.slice(0, -1));
    }
    return;
  }
  if (state.moves.length === 0) return;
  const human = $('human').value;
  let moves = state.moves.slice(0, -1);
  const toMove = moves.length % 2 === 0 ? 'black' : 'white';
  if (human !== 'both' && toMove !== human && moves.length > 0) {
    moves = moves.slice(0, -1);
  }
  // Not into the opening's stones: back to its last action instead.
  if (state.opening && moves.length < state.opening.stones) {
    setOpening(state.opening.actions.slice(0, -1));
    return;
  }
  state.suggestion = null;
  setMoves(moves);
}

// --- The value graph -----------------------------------------------------------

// Black's expected score (win 1, draw 0, loss -1) in the position after
// each move of the game, from one search each at the page's budget; drawn
// as it comes. A change of the game stops it.
async function analyseGame() {
  const moves = state.moves.slice();
  const key = movesText(moves) + '|' + rule();
  state.analysis = {key, values: []};
  const last = gameOver() ? moves.length - 1 : moves.length;
  for (let ply = 0; ply <= last; ++ply) {
    if (!state.analysis || state.analysis.key !== key) return;
    $('analysis-status').textContent = `move ${ply} of ${last}...`;
    try {
      const s = await api('/api/suggest',
                          {moves: movesText(moves.slice(0, ply)),
                           rule: rule(), ...budget()});
      const forMover = s.win - s.loss;
      state.analysis.values.push(
          {ply, value: s.to_move === 'black' ? forMover : -forMover,
           best: s.best_move});
    } catch (e) {
      showError(e.message);
      break;
    }
    drawValueGraph();
  }
  if (state.analysis && state.analysis.key === key) {
    $('analysis-status').textContent =
        `${state.analysis.values.length} positions analysed`;
  }
}

function drawValueGraph() {
  const graph = $('value-graph');
  while (graph.firstChild) graph.removeChild(graph.firstChild);
  if (!state.analysis) return;
  const W = 440, H = 160, left = 34, right = 8, top = 8, bottom = 20;
  const values = state.analysis.values;
  const n = Math.max(1, ...values.map((v) => v.ply));
  const X = (ply) => left + ply / n * (W - left - right);
  const Y = (v) => top + (1 - v) / 2 * (H - top - bottom);
  for (const [v, label] of [[1, 'black'], [0, 'even'], [-1, 'white']]) {
    svg('line', {class: v === 0 ? 'axis-mid' : 'axis', x1: left, y1: Y(v),
                 x2: W - right, y2: Y(v)}, graph);
    svg('text', {class: 'tick y', x: left - 4, y: Y(v) + 4}, graph)
        .textContent = label;
  }
  svg('polyline', {class: 'value-line', points: values.map(
      (v) => `${X(v.ply)},${Y(v.value)}`).join(' ')}, graph);
  for (const v of values) {
    const dot = svg('circle', {class: 'value-point', cx: X(v.ply),
                               cy: Y(v.value), r: 3, 'data-ply': v.ply},
                    graph);
    svg('title', {}, dot).textContent =
        `after move ${v.ply}: black ${v.value >= 0 ? '+' : ''}` +
        `${v.value.toFixed(2)}; best next ${v.best}`;
  }
}

// --- Move lists --------------------------------------------------------------

function clearAnalysis() {
  state.analysis = null;
  $('analysis-status').textContent = '';
  drawValueGraph();
}

// A move list is free play: the opening selector goes back to none.
function loadText(text) {
  clearAnalysis();
  state.suggestion = null;
  state.opening = null;
  $('opening-rule').value = '';
  setMoves(text.trim().split(/[\s,]+/).filter((m) => m.length > 0));
}

const DROPPED_TEXT = {
  rule: 'the rule', result: 'the result', opening_rule: 'the opening rule',
  opening_actions: 'its actions',
};

// The game in the chosen format, written by the server's writers
// (/api/records/save) so that `renju replay` and Open file read it back;
// the note says what the format could not hold.
async function save() {
  showError('');
  $('save-note').textContent = '';
  const body = {format: $('save-format').value, moves: movesText(state.moves),
                rule: rule()};
  const p = state.position;
  if (p) {
    body.size = p.size;
    if (p.result !== 'ongoing') body.result = p.result;
  }
  if (state.opening) {
    body.opening_rule = state.opening.rule;
    body.opening_actions = state.opening.actions;
  }
  let answer;
  try {
    answer = await api('/api/records/save', body);
  } catch (e) {
    showError(e.message);
    return;
  }
  const blob = new Blob([answer.text], {type: 'text/plain'});
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = answer.name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
  let note = `Saved ${answer.name}.`;
  if (answer.dropped.length > 0) {
    note += ` This format does not hold ` +
        answer.dropped.map((f) => DROPPED_TEXT[f] || f).join(', ') +
        ': only .jsonl keeps everything.';
  }
  $('save-note').textContent = note;
}

// A record file (move list, .psq, SGF, .rif, ...), read by the server's
// parsers (/api/records); a file of several games offers them all.
async function openFile(event) {
  const file = event.target.files[0];
  event.target.value = '';
  if (!file) return;
  showError('');
  try {
    const answer = await api('/api/records',
                             {name: file.name, text: await file.text()});
    state.records = answer.games;
    const select = $('record-games');
    while (select.firstChild) select.removeChild(select.firstChild);
    answer.games.forEach((game, i) => {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = `${file.name}: game ${i + 1} ` +
          `(${game.moves.split(' ').filter((m) => m).length} moves` +
          `${game.result ? ', ' + game.result : ''})`;
      select.appendChild(option);
    });
    select.hidden = answer.games.length < 2;
    loadRecord(0);
  } catch (e) {
    showError(e.message);
  }
}

// A record's game; one played under an opening rule comes back as the
// opening (the rule selected, its actions replayed) and the moves after it.
function loadRecord(i) {
  const game = state.records[i];
  if (game.rule) $('rule').value = game.rule;
  $('moves').value = game.moves;
  if (!game.opening_rule) {
    loadText(game.moves);
    return;
  }
  clearAnalysis();
  state.suggestion = null;
  state.opening = null;
  const select = $('opening-rule');
  if (![...select.options].some((o) => o.value === game.opening_rule)) {
    // A rule the selector does not list (taraguchi5, centre, ...).
    select.appendChild(new Option(game.opening_rule, game.opening_rule));
  }
  select.value = game.opening_rule;
  setOpening(game.opening_actions,
             game.moves.split(' ').filter((m) => m.length > 0));
}

// --- Start -------------------------------------------------------------------

function newGame() {
  clearAnalysis();
  state.suggestion = null;
  state.opening = null;
  if (openingRule()) setOpening([]); else setMoves([]);
}

function start() {
  $('new-game').addEventListener('click', newGame);
  $('opening-rule').addEventListener('change', newGame);
  $('opening-swap').addEventListener('click',
      () => takeOpeningAction('Swap'));
  $('opening-keep').addEventListener('click',
      () => takeOpeningAction('KeepColours'));
  $('opening-declare').addEventListener('click', () => takeOpeningAction(
      `DeclareCount(${parseInt($('opening-count').value, 10) || 0})`));
  $('opening-take-advice').addEventListener('click', () => {
    if (state.opening && state.opening.advice) {
      takeOpeningAction(state.opening.advice.action);
    }
  });
  $('undo').addEventListener('click', undo);
  $('pass').addEventListener('click', () => {
    if (state.busy || gameOver() || modelToMove()) return;
    state.suggestion = null;
    setMoves(state.moves.concat(['pass']));
  });
  $('analyse').addEventListener('click', () => {
    if (state.busy) return;
    if (inOpening()) adviseOpening(); else if (!gameOver()) search(false);
  });
  $('load').addEventListener('click', () => loadText($('moves').value));
  $('analyse-game').addEventListener('click', () => {
    if (!state.busy) analyseGame();
  });
  $('save').addEventListener('click', save);
  $('open-file').addEventListener('change', openFile);
  $('record-games').addEventListener('change',
      () => loadRecord(parseInt($('record-games').value, 10)));
  $('human').addEventListener('change', () => {
    if (inOpening()) setOpening(state.opening.actions);
    else setMoves(state.moves);
  });
  $('rule').addEventListener('change', () => {
    state.suggestion = null;
    if (inOpening()) setOpening(state.opening.actions);
    else setMoves(state.moves);
  });
  setMoves([]);
}

start();
