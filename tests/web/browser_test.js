// The board page in a real headless Chromium (Debian's) against a real
// `renju serve --http`, driven by puppeteer-core: plays moves by clicking
// and waits for the model's answers on the board, loads a position with a
// known double-three and finds the point marked, plays it and sees the game
// end, and saves a screenshot.
//
//   node browser_test.js RENJU_BINARY CHROMIUM OUTPUT_DIR
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

const [binary, chromium, outputDir] = process.argv.slice(2);
const TOKEN = 'browser-test-token';
const WAIT_MS = 40000;  // for one model answer on a busy 2-core machine
// Black to move; i8 is a double three (g8-h8-i8 and i8-i9-i10), the
// position of tests/inference/serve_test_util.h (kDoubleThree).
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
    '--token', TOKEN,
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

  // A bad move list is refused with the server's reason.
  await page.$eval('#moves', (e) => { e.value = 'h8 h8'; });
  await page.click('#load');
  await page.waitForFunction(
      () => /occupied/.test(document.getElementById('error').textContent),
      {timeout: WAIT_MS});
  check(true, 'a bad move list is refused, naming the occupied point');

  await page.$eval('#moves', (e, moves) => { e.value = moves; },
      DOUBLE_THREE);
  await page.click('#load');
  await page.waitForSelector(
      'g.forbidden[data-point="i8"][data-kind="double-three"]',
      {timeout: WAIT_MS});
  check(true, 'i8 is marked as a double-three');
  check(await stoneCount(page, 'black') === 4, 'the loaded position is shown');

  await page.click('#analyse');
  await page.waitForSelector('g.candidate', {timeout: WAIT_MS});
  await waitForStatus(page, /^Black to move/);
  check(true, 'the model\'s candidates are on the board');
  const screenshot = path.join(outputDir, 'board.png');
  await page.screenshot({path: screenshot});
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
}

async function main() {
  const {server, url} = await startServer();
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
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await run(page, url);
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
