// The board page and the run page in a real headless Chromium (Debian's)
// against one real `renju serve --http --run-dir`, driven by
// puppeteer-core. The board: plays moves by clicking and waits for the
// model's answers on the board, loads a position with a known double-three
// and finds the point marked, plays it and sees the game end, reloads that
// saved game; under Taraguchi-10 places the first stone, takes the model's
// swap-or-keep advice, saves the opening as .jsonl (the downloaded file)
// and opens it again, and saves it as .psq (the dropped fields named).
// The run page, on a prepared run folder: the generations table, the Elo
// plot with its anchor, the losses, a match game replayed on the board.
// Saves a screenshot of each page.
//
//   node browser_test.js RENJU_BINARY CHROMIUM RUN_DIR OUTPUT_DIR
//
// Run by browser_test.sh (ctest: browser_test), which installs
// puppeteer-core. Exits 0 when every check passed; otherwise prints the
// first failure and exits 1.
'use strict';

const {spawn} = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const puppeteer = require('puppeteer-core');

const [binary, chromium, runDir, outputDir] = process.argv.slice(2);
const TOKEN = 'browser-test-token';
const WAIT_MS = 40000;  // for one model answer on a busy 2-core machine
// Black to move; i8 is a double three (g8-h8-i8 and i8-i9-i10), the
// position of tests/common/serve_test_util.h (kDoubleThree).
const DOUBLE_THREE = 'g8 a1 h8 o1 i9 a15 i10 o15';

function check(condition, what) {
  if (!condition) throw new Error('check failed: ' + what);
  console.log('ok: ' + what);
}

// Starts `renju serve` on free ports; resolves to the process and the
// page's address once it prints "http on ...".
function startServer() {
  const server = spawn(binary, [
    'serve', '--listen', '127.0.0.1:0', '--http', '127.0.0.1:0',
    '--token', TOKEN, '--run-dir', runDir,
  ], {stdio: ['ignore', 'pipe', 'inherit']});
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.on('exit', (code) => reject(new Error(
        'renju serve exited with ' + code + ' before serving')));
    readline.createInterface({input: server.stdout}).on('line', (line) => {
      const match = /^http on (\S+)/.exec(line);
      if (match) resolve({server, url: match[1]});
    });
  });
}

async function statusText(page) {
  return page.$eval('#status', (e) => e.textContent);
}

async function waitForStatus(page, pattern) {
  await page.waitForFunction(
      (source) => new RegExp(source).test(
          document.getElementById('status').textContent),
      {timeout: WAIT_MS}, pattern.source);
  return statusText(page);
}

async function stoneCount(page, color) {
  return page.$$eval('circle.stone.' + color, (stones) => stones.length);
}

async function occupied(page) {
  return page.$$eval('circle.stone', (stones) =>
    stones.map((s) => s.getAttribute('data-point')));
}

// Clicks `point` as black and waits for white's answer.
async function playAndWaitForModel(page, point) {
  const whites = await stoneCount(page, 'white');
  await page.click(`rect.hit[data-point="${point}"]`);
  await page.waitForFunction(
      (n) => document.querySelectorAll('circle.stone.white').length > n,
      {timeout: WAIT_MS}, whites);
  await waitForStatus(page, /^Black to move/);
}

async function run(page, url) {
  await page.goto(url + '#token=' + TOKEN);
  check(/^Black to move/.test(await waitForStatus(page, /^Black to move/)),
      'the page loads with black to move');
  check(await page.$$eval('rect.hit', (r) => r.length) === 225 &&
      await page.$eval('#board', (e) => e.dataset.size) === '15',
      'the board has the served 15x15 points');
  await page.$eval('#visits', (e) => { e.value = '16'; });

  await playAndWaitForModel(page, 'h8');
  check((await occupied(page)).includes('h8'), 'black stone on h8');
  check(await stoneCount(page, 'white') === 1, 'the model answered as white');
  check(await page.$$eval('#candidates tbody tr', (r) => r.length) >= 1,
      'the model\'s candidates are listed');

  const taken = await occupied(page);
  const next = ['j10', 'g7', 'f6', 'j6'].find((p) => !taken.includes(p));
  await playAndWaitForModel(page, next);
  check(await stoneCount(page, 'white') === 2, 'the model answered again');
  check((await page.$eval('#moves', (e) => e.value)).split(' ').length === 4,
      'the move list holds the four moves');

  // Time per move instead of visits.
  await page.select('#budget-unit', 'time_ms');
  await page.$eval('#visits', (e) => { e.value = '300'; });
  await page.click('#analyse');
  await page.waitForFunction(
      () => /Best for black/.test(
          document.getElementById('model-summary').textContent),
      {timeout: WAIT_MS});
  await waitForStatus(page, /^Black to move/);
  check(true, 'the model answers with a time budget');
  await page.select('#budget-unit', 'visits');
  await page.$eval('#visits', (e) => { e.value = '16'; });

  // A bad move list is refused with the server's reason.
  await page.$eval('#moves', (e) => { e.value = 'h8 h8'; });
  await page.click('#load');
  await page.waitForFunction(
      () => /occupied/.test(document.getElementById('error').textContent),
      {timeout: WAIT_MS});
  check(true, 'a bad move list is refused, naming the occupied point');

  // The double-three position from a Piskvork .psq file, read by the
  // server's parser (rows counted from the top there).
  const psq = path.join(outputDir, 'double-three.psq');
  fs.writeFileSync(psq, 'Piskvorky 15x15, 11:11, 0\n' +
      DOUBLE_THREE.split(' ').map((p) =>
        `${'abcdefghijklmno'.indexOf(p[0]) + 1},${16 - parseInt(p.slice(1))}`)
          .join('\n') + '\n-1\n');
  await (await page.$('#open-file')).uploadFile(psq);
  await page.waitForSelector(
      'g.forbidden[data-point="i8"][data-kind="double-three"]',
      {timeout: WAIT_MS});
  check(await page.$eval('#moves', (e) => e.value) === DOUBLE_THREE,
      'a .psq file opens as its moves');
  check(true, 'i8 is marked as a double-three');
  check(await stoneCount(page, 'black') === 4, 'the loaded position is shown');

  await page.click('#analyse');
  await page.waitForSelector('g.candidate', {timeout: WAIT_MS});
  await waitForStatus(page, /^Black to move/);
  check(true, 'the model\'s candidates are on the board');
  // The value graph: a search of each position of the game, 0 to 8 moves.
  await page.click('#analyse-game');
  await page.waitForFunction(
      () => document.querySelectorAll('#value-graph circle.value-point')
          .length === 9, {timeout: 5 * WAIT_MS});
  await waitForStatus(page, /^Black to move/);
  check(true, 'the game is analysed move by move into the value graph');
  await page.evaluate(() => window.scrollTo(0, 0));
  const screenshot = path.join(outputDir, 'board.png');
  await page.screenshot({path: screenshot, fullPage: true});
  console.log('screenshot: ' + screenshot);

  await page.click('rect.hit[data-point="i8"]');
  const lost = /^White wins: black played i8, a forbidden point \(double-three\)/;
  check(lost.test(await waitForStatus(page, /^White wins/)),
      'playing the forbidden point loses (the server\'s verdict)');

  // The game as Save writes it reads back through Open file, ended the same
  // way.
  const saved = path.join(outputDir, 'forbidden-end.txt');
  fs.writeFileSync(saved, (await page.$eval('#moves', (e) => e.value)) + '\n');
  await page.click('#new-game');
  await waitForStatus(page, /^Black to move \(move 1\)/);
  await (await page.$('#open-file')).uploadFile(saved);
  check(lost.test(await waitForStatus(page, /^White wins/)),
      'the saved game that ended on a forbidden move reloads');
  check(await stoneCount(page, 'black') === 5, 'with its five black stones');
  check(await page.$eval('#error', (e) => e.textContent) === '',
      'and no error');
  await page.click('#undo');
  await waitForStatus(page, /^Black to move/);
  check(!(await occupied(page)).includes('i8'), 'undo takes it back');

  // An opening rule: Taraguchi-10's first stone, the swap it offers, and
  // the model's advice on it with the values behind it.
  await page.select('#opening-rule', 'taraguchi10');
  await waitForStatus(page, /^Opening: The first player \(black\) acts/);
  await page.click('rect.hit[data-point="h8"]');
  await waitForStatus(page, /^Opening: The second player \(white\) acts/);
  check(!(await page.$eval('#opening-swap', (e) => e.hidden)) &&
      !(await page.$eval('#opening-keep', (e) => e.hidden)),
      'after Taraguchi-10\'s first stone the page offers swap or keep');
  await page.click('#analyse');
  await page.waitForFunction(
      () => /should take (Swap|KeepColours): as black it expects \d+%/.test(
          document.getElementById('opening-advice').textContent),
      {timeout: WAIT_MS});
  check(true, 'the model advises swap or keep, with the values');
  await page.click('#opening-take-advice');
  // The status reads the same before and after: wait for the action.
  await page.waitForFunction(() => /^Actions: Place\(h8\) \w+$/.test(
      document.getElementById('opening-actions').textContent),
  {timeout: WAIT_MS});
  await waitForStatus(page, /^Opening: The \w+ player \(white\) acts/);
  const actions = await page.$eval('#opening-actions', (e) => e.textContent);
  check(/^Actions: Place\(h8\) (Swap|KeepColours)$/.test(actions),
      'taking the advice is the opening\'s next action');

  // Saving: the opening in progress as JSON Lines, downloaded, and opened
  // again with its rule and actions; as .psq the stones only, and the page
  // says what the format dropped.
  const savedAnswer = async (format) => {
    await page.select('#save-format', format);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/records/save'),
                           {timeout: WAIT_MS}),
      page.click('#save'),
    ]);
    return response.json();
  };
  const download = path.join(outputDir, 'renju-game.jsonl');
  // A name taken would make Chromium save as "renju-game (1).jsonl".
  for (const name of ['renju-game.jsonl', 'renju-game.psq']) {
    fs.rmSync(path.join(outputDir, name), {force: true});
  }
  const jsonl = await savedAnswer('jsonl');
  const line = JSON.parse(jsonl.text);
  check(jsonl.name === 'renju-game.jsonl' &&
      line.opening_rule === 'taraguchi10' &&
      'Actions: ' + line.opening_actions.join(' ') === actions &&
      jsonl.dropped.length === 0,
      'Save as .jsonl keeps the opening rule and its actions');
  await page.waitForFunction(() => /^Saved renju-game\.jsonl\.$/.test(
      document.getElementById('save-note').textContent), {timeout: WAIT_MS});
  for (let t = 0; t < 100 && !fs.existsSync(download); ++t) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  check(fs.existsSync(download) &&
      fs.readFileSync(download, 'utf8') === jsonl.text,
      'the page downloads the saved text');
  await page.select('#opening-rule', '');
  await waitForStatus(page, /^Black to move \(move 1\)/);
  await (await page.$('#open-file')).uploadFile(download);
  await page.waitForFunction((text) =>
    document.getElementById('opening-actions').textContent === text,
  {timeout: WAIT_MS}, actions);
  await waitForStatus(page, /^Opening: The \w+ player \(white\) acts/);
  check(await page.$eval('#opening-rule', (e) => e.value) === 'taraguchi10',
      'the saved file opens as the opening it was, rule and actions');
  const psqAnswer = await savedAnswer('psq');
  check(psqAnswer.text === 'Piskvorky 15x15, 0:0, 0\n8,8,0\n0\n' &&
      psqAnswer.dropped.join(',') === 'rule,opening_rule,opening_actions',
      'Save as .psq keeps the stone and names what it dropped');
  await page.waitForFunction(() => /does not hold the rule, the opening rule/
      .test(document.getElementById('save-note').textContent),
  {timeout: WAIT_MS});
  check(true, 'and the page says so');
  // A finished RIF opening and a move after it open as that opening and
  // that game.
  const rifGame = path.join(outputDir, 'rif-game.jsonl');
  fs.writeFileSync(rifGame, JSON.stringify({
    moves: ['h8', 'h9', 'j10', 'i10', 'j7', 'k8'], rule: 'renju',
    opening_rule: 'rif', opening_actions: ['Place(h8)', 'Place(h9)',
      'Place(j10)', 'Swap', 'Place(i10)', 'OfferFifth(g7 j7)',
      'ChooseFifth(j7)'],
  }) + '\n');
  await (await page.$('#open-file')).uploadFile(rifGame);
  await waitForStatus(page, /^Black to move \(move 7\)/);
  check(await page.$eval('#opening-rule', (e) => e.value) === 'rif' &&
      await stoneCount(page, 'black') + await stoneCount(page, 'white') ===
      6 && await page.$eval('#error', (e) => e.textContent) === '',
      'a game played on after its opening opens as both');
  await page.select('#opening-rule', '');
  await waitForStatus(page, /^Black to move \(move 1\)/);
}

// The run page on the prepared folder (tests/web/run_folder: a real run's
// ratings with the anchor "tactical", losses, and the rating match
// gen3-vs-gen2 beside older matches).
async function checkRunPage(page, url) {
  const ratings = JSON.parse(
      fs.readFileSync(path.join(runDir, 'ratings.json'), 'utf8'));
  const rated = ratings.ratings.map((r) => String(r.generation));
  await page.goto(url + 'run.html#token=' + TOKEN);
  await page.waitForFunction(
      () => document.querySelectorAll('#generations tbody tr').length > 0,
      {timeout: WAIT_MS});
  const generations = await page.$$eval('#generations tbody tr',
      (rows) => rows.map((r) => r.cells[0].textContent));
  check(generations.join(',') === rated.join(','),
      'the generations table lists the rated generations ' + generations);
  check(await page.$$eval('#elo-plot .series.elo circle', (c) => c.length) ===
      rated.length, 'the Elo plot has a point per generation');
  check(await page.$$eval('#elo-plot .error-bar', (c) => c.length) ===
      rated.length, 'with its interval');
  check((await page.$eval('#elo-plot', (e) => e.textContent)).includes(
      'tactical'), 'and the anchor\'s line');
  check(await page.$$eval('#loss-plot polyline', (p) => p.length) === 2,
      'the loss plot has policy and value lines');
  check(await page.$eval('#match', (e) => e.value) === 'gen3-vs-gen2',
      'the newest rating match is chosen');
  await page.waitForSelector('#games button.game', {timeout: WAIT_MS});
  await page.click('#games li:nth-child(2) button.game');
  await page.click('#last');
  const moves = await page.$$eval('#board circle.stone', (s) => s.length);
  check(moves > 0 && /move (\d+) of \1\./.test(
      await page.$eval('#game-info', (e) => e.textContent)),
      'a match game replays to its last move (' + moves + ' stones)');
  await page.click('#back');
  check(await page.$$eval('#board circle.stone', (s) => s.length) ===
      moves - 1, 'and steps back');
  await page.click('#last');
  await page.evaluate(() => window.scrollTo(0, 0));
  const screenshot = path.join(outputDir, 'run.png');
  await page.screenshot({path: screenshot, fullPage: true});
  console.log('screenshot: ' + screenshot);
}

async function main() {
  const {server, url} = await startServer();
  // However node ends (an unhandled rejection included), the server goes
  // too: left running, it would hold ctest's output pipe open.
  process.on('exit', () => server.kill('SIGTERM'));
  let browser = null;
  let failed = false;
  try {
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      // Root in a container: no sandbox; no GPU.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      defaultViewport: {width: 1100, height: 700},
    });
    // Save's downloads go to the output folder (headless Chromium's
    // default is none).
    await (await browser.target().createCDPSession()).send(
        'Browser.setDownloadBehavior',
        {behavior: 'allow', downloadPath: path.resolve(outputDir)});
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await run(page, url);
    await checkRunPage(page, url);
    check(errors.length === 0, 'no script errors on the page ' +
        JSON.stringify(errors));
  } catch (e) {
    console.error('browser_test: ' + e.message);
    failed = true;
  } finally {
    if (browser) await browser.close();
    server.removeAllListeners('exit');
    server.kill('SIGTERM');
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error('browser_test: ' + e.message);
  process.exit(1);
});
