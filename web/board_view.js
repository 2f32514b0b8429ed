// An SVG renju board of the size the server plays, shared by the board page
// (board.js) and the run page's replays (run.js): the grid, coordinates as
// renju players write them (a.. left to right, 1.. from the bottom), click
// targets and the stones. What goes on the board beyond the stones is the
// page's own, drawn into the layers this makes.
'use strict';

const RenjuBoard = (() => {
  const CELL = 36;
  const MARGIN = 48;  // from the SVG's edge to the first line
  const COLUMNS = 'abcdefghijklmnopqrstuvwxyz';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  // Layers above the grid, bottom to top.
  const LAYERS = ['stones', 'marks', 'candidates-layer', 'pv-layer'];

  function svg(tag, attributes, parent) {
    const element = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attributes)) {
      element.setAttribute(key, value);
    }
    if (parent) parent.appendChild(element);
    return element;
  }

  // The star points: the centre, and on boards of 13 and up the four points
  // on the fourth lines from the corners (d4, l4, d12, l12 on 15x15).
  function starPoints(size) {
    const stars = [];
    const centre = Math.floor(size / 2);
    if (size % 2 === 1) stars.push([centre, centre]);
    if (size >= 13) {
      for (const col of [3, size - 4]) {
        for (const row of [3, size - 4]) stars.push([col, row]);
      }
    }
    return stars;
  }

  // Draws a `size` x `size` board into `element` (an <svg>), replacing what
  // it held; `onClick(point)` is called with a point's name when it is
  // clicked (optional).
  function create(element, size, onClick) {
    while (element.firstChild) element.removeChild(element.firstChild);
    const end = MARGIN + (size - 1) * CELL;
    element.setAttribute('viewBox', `0 0 ${end + MARGIN} ${end + MARGIN}`);
    element.setAttribute('aria-label', `${size}x${size} renju board`);
    element.setAttribute('data-size', String(size));

    const pointName = (col, row) => COLUMNS[col] + (row + 1);
    const xy = (col, row) => [MARGIN + col * CELL,
                              MARGIN + (size - 1 - row) * CELL];
    function pointXY(name) {
      return xy(COLUMNS.indexOf(name[0]), parseInt(name.slice(1), 10) - 1);
    }

    const grid = svg('g', {class: 'grid'}, element);
    for (let i = 0; i < size; ++i) {
      const at = MARGIN + i * CELL;
      svg('line', {x1: MARGIN, y1: at, x2: end, y2: at}, grid);
      svg('line', {x1: at, y1: MARGIN, x2: at, y2: end}, grid);
      svg('text', {class: 'coord', x: at, y: end + 32}, element).textContent =
          COLUMNS[i];
      svg('text', {class: 'coord', x: MARGIN - 30, y: end - i * CELL + 5},
          element).textContent = String(i + 1);
    }
    for (const [col, row] of starPoints(size)) {
      const [x, y] = xy(col, row);
      svg('circle', {class: 'star', cx: x, cy: y, r: 3.5}, element);
    }
    const hits = svg('g', {class: 'hits'}, element);
    for (let col = 0; col < size; ++col) {
      for (let row = 0; row < size; ++row) {
        const name = pointName(col, row);
        const [x, y] = xy(col, row);
        const hit = svg('rect', {
          class: 'hit', x: x - CELL / 2, y: y - CELL / 2, width: CELL,
          height: CELL, 'data-point': name,
        }, hits);
        if (onClick) hit.addEventListener('click', () => onClick(name));
      }
    }
    const layers = {};
    for (const name of LAYERS) layers[name] = svg('g', {class: name}, element);

    // The layer `name`, emptied.
    function clear(name) {
      const layer = layers[name];
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      return layer;
    }

    // The stones of `moves` (play order from black; "pass" passes), the
    // last one marked; with `numbered`, each stone shows its move number.
    function drawStones(moves, numbered) {
      const layer = clear('stones');
      moves.forEach((move, i) => {
        if (move === 'pass') return;
        const [x, y] = pointXY(move);
        const color = i % 2 === 0 ? 'black' : 'white';
        svg('circle', {
          class: 'stone ' + color, cx: x, cy: y, r: CELL * 0.45,
          'data-point': move, 'data-move-number': i + 1,
        }, layer);
        if (numbered) {
          svg('text', {class: 'move-number ' + color, x: x, y: y + 5},
              layer).textContent = String(i + 1);
        }
      });
      const last = moves[moves.length - 1];
      if (last && last !== 'pass' && !numbered) {
        const [x, y] = pointXY(last);
        svg('circle', {class: 'last', cx: x, cy: y, r: CELL * 0.15}, layer);
      }
    }

    return {size, cell: CELL, pointXY, clear, drawStones};
  }

  return {create, svg};
})();
