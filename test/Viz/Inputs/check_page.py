"""Checks a graph-viz page in a real browser (Debian's chromium, headless).

Drives chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: JSON messages ended by NUL on file descriptors 3
and 4), so that it needs no network port and no Python package:

  - the page loads without console errors or exceptions, and requests nothing
    but itself (self-contained);
  - it has one step per pass plus the input, each with the node count and
    fused kinds of graph-report (given as its JSON lines, one per step): the
    boxes of the picture with fused groups closed, the clusters with them
    open, and the figures table;
  - the previous/next buttons, the arrow keys and the step list change the
    step shown;
  - a screenshot is taken and is not blank (decoded here, pixels counted).

Usage: check_page.py PAGE REPORTS [--screenshot FILE.png] [--step N]
Prints one line per check; exits 1 on the first failure.
"""

import argparse
import base64
import fcntl
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

WIDTH, HEIGHT = 1400, 900
TIMEOUT = 60


class Browser:
    """Chromium with a DevTools session on one page."""

    def __init__(self, chromium, user_data_dir):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child_fds():
            # Out of the way first, in case the pipes are fds 3 or 4.
            read_end = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            write_end = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--user-data-dir=" + user_data_dir,
             "--remote-debugging-pipe", "--hide-scrollbars",
             "--window-size=%d,%d" % (WIDTH, HEIGHT), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, pass_fds=(3, 4),
            preexec_fn=child_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method,
                   "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.time() + TIMEOUT
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_event(self, method, start=0):
        """The first `method` event from the `start`-th event on."""
        deadline = time.time() + TIMEOUT
        for event in self.events[start:]:
            if event.get("method") == method:
                return event
        while True:
            event = self._read_message(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate",
                           {"expression": expression, "returnByValue": True,
                            "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError("script failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def click(self, selector):
        box = self.evaluate(
            "(() => { const r = document.querySelector(%s)"
            ".getBoundingClientRect(); return [r.x + r.width / 2,"
            " r.y + r.height / 2]; })()" % json.dumps(selector))
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": box[0], "y": box[1],
                       "button": "left", "clickCount": 1})

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent",
                      {"type": kind, "key": key, "code": code,
                       "windowsVirtualKeyCode": {"ArrowRight": 39,
                                                 "ArrowLeft": 37,
                                                 "c": 67}[key]})

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def decode_png(data):
    """Pixels of an 8-bit RGB or RGBA PNG as rows of bytes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(
                ">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and color in (2, 6) and not interlace, \
        "unexpected PNG format (depth %d, color type %d)" % (depth, color)
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = row[i - bpp] if i >= bpp else 0
            up = previous[i]
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + ((left + up) >> 1)) & 255
            elif kind == 4:
                upleft = previous[i - bpp] if i >= bpp else 0
                p = left + up - upleft
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
                pred = left if pa <= pb and pa <= pc else (
                    up if pb <= pc else upleft)
                row[i] = (row[i] + pred) & 255
        rows.append(row)
        previous = row
    return width, height, bpp, rows


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)
    print("ok: " + message)


STEPS_JS = r"""
JSON.stringify(Array.from(document.querySelectorAll('section.step')).map(s => {
  const firstText = g => (g.querySelector('text') || {}).textContent || '';
  const fusedTable = {};
  for (const row of s.querySelectorAll('table.figures tr[data-fused]'))
    fusedTable[row.dataset.fused] = +row.cells[1].textContent;
  const opsTable = {};
  // Rows of ops that the previous step had and this one has not read 0.
  for (const row of s.querySelectorAll('table.figures tr[data-op]')) {
    const count = +row.cells[1].textContent.replace(/,/g, '');
    if (count) opsTable[row.dataset.op] = count;
  }
  return {
    pass: s.dataset.pass,
    ops: +s.dataset.ops,
    boxes: s.querySelectorAll('.view.collapsed svg g.node.opnode').length,
    fusedBoxes: Array.from(s.querySelectorAll(
        '.view.collapsed svg g.node.k_fused')).map(firstText),
    fusedClusters: Array.from(s.querySelectorAll(
        '.view.expanded svg g.cluster.fusedgroup')).map(firstText),
    opsTable: opsTable,
    fusedTable: fusedTable,
  };
}))
"""

SHOWN_JS = r"""
JSON.stringify({
  step: +document.body.dataset.step,
  visible: Array.from(document.querySelectorAll('section.step'))
      .filter(s => !s.hidden).map(s => +s.dataset.step),
  active: Array.from(document.querySelectorAll('#step-list li'))
      .findIndex(li => li.classList.contains('active')),
  title: document.getElementById('step-title').textContent,
})
"""


def shown(browser):
    state = json.loads(browser.evaluate(SHOWN_JS))
    assert state["visible"] == [state["step"]], state
    assert state["active"] == state["step"], state
    return state["step"]


def counts(names):
    result = {}
    for name in names:
        result[name] = result.get(name, 0) + 1
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("reports")
    parser.add_argument("--screenshot")
    parser.add_argument("--step", type=int, default=0)
    args = parser.parse_args()

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("FAIL: no chromium on PATH")
        return 1
    with open(args.reports) as f:
        reports = [json.loads(line) for line in f if line.startswith("{")]

    user_data_dir = tempfile.mkdtemp(prefix="graph-viz-chromium-")
    browser = Browser(chromium, user_data_dir)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"},
                              session=False)
        browser.session = browser.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(domain + ".enable")
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": WIDTH, "height": HEIGHT,
                      "deviceScaleFactor": 1, "mobile": False})
        url = "file://" + os.path.abspath(args.page)
        # Events before the navigation belong to about:blank.
        start = len(browser.events)
        browser.send("Page.navigate", {"url": url})
        browser.wait_event("Page.loadEventFired", start)
        check(browser.evaluate("location.href") == url and
              browser.evaluate("document.readyState") == "complete",
              "the page is loaded")
        # Let the page's script run its first layout.
        browser.evaluate("new Promise(r => requestAnimationFrame(() => r(1)))")

        steps = json.loads(browser.evaluate(STEPS_JS))
        check(len(steps) == len(reports),
              "%d steps for %d graph-report outputs (the input and one per "
              "pass)" % (len(steps), len(reports)))
        for index, (step, report) in enumerate(zip(steps, reports)):
            total = sum(report["ops"].values())
            drawn = total - report["ops"].get("func.return", 0)
            check(step["ops"] == total and step["opsTable"] == report["ops"],
                  "step %d (%s): %d ops in the figures, as graph-report"
                  % (index, step["pass"], total))
            check(step["boxes"] == drawn,
                  "step %d: %d op boxes drawn (graph-report: %d ops besides "
                  "func.return)" % (index, step["boxes"], drawn))
            check(counts(step["fusedBoxes"]) == report["fused"] and
                  counts(step["fusedClusters"]) == report["fused"] and
                  step["fusedTable"] == report["fused"],
                  "step %d: fused kinds %s, as graph-report"
                  % (index, json.dumps(report["fused"], sort_keys=True)))

        check(shown(browser) == 0, "the page opens on step 0")
        browser.click("#next")
        check(shown(browser) == 1, "the Next button shows step 1")
        browser.key("ArrowRight", "ArrowRight")
        last = len(steps) - 1
        check(shown(browser) == min(2, last), "the right arrow key steps on")
        browser.click("#prev")
        check(shown(browser) == min(1, last), "the Previous button steps back")
        browser.key("ArrowLeft", "ArrowLeft")
        check(shown(browser) == 0, "the left arrow key steps back")
        browser.click("#step-list li:last-child button")
        check(shown(browser) == last, "the step list jumps to the last step")
        browser.click("#step-list li:nth-child(%d) button" % (args.step + 1))
        check(shown(browser) == args.step, "the step list jumps to step %d"
              % args.step)

        # Fused groups open and close: a click on the open group shows it
        # as one box, in the middle of the pane, and a click there opens it.
        group = browser.evaluate(
            "(() => { const g = document.querySelector('section.step:not([hidden]) "
            ".view:not([hidden]) g.cluster.fusedgroup'); return g && g.id; })()")
        if group:
            collapsed = browser.evaluate(
                "document.getElementById('collapse').checked")
            browser.click("#" + group)
            box = group.replace("e_g", "c_n") if not collapsed else None
            state = json.loads(browser.evaluate(
                "(() => { const box = document.getElementById(%s); "
                "const r = box ? box.getBoundingClientRect() : null; "
                "const p = box ? box.closest('.view').getBoundingClientRect() : null; "
                "return JSON.stringify({checked: document.getElementById('collapse').checked, "
                "shown: box ? !box.closest('.view').hidden : false, "
                "centered: box ? Math.abs((r.left + r.right) / 2 - (p.left + p.right) / 2) < 5 && "
                "Math.abs((r.top + r.bottom) / 2 - (p.top + p.bottom) / 2) < 5 : false}); })()"
                % json.dumps(box)))
            check(state["checked"] != collapsed and state["shown"] and
                  state["centered"],
                  "a click on group %s closes the groups and centers its box"
                  % group)
            browser.key("c", "KeyC")
            check(browser.evaluate(
                "document.getElementById('collapse').checked") == collapsed,
                  "the c key opens them again")

        # The full-size picture for people; a quarter-size one to decode.
        shot = base64.b64decode(browser.send(
            "Page.captureScreenshot", {"format": "png"})["data"])
        if args.screenshot:
            with open(args.screenshot, "wb") as f:
                f.write(shot)
        small = base64.b64decode(browser.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH,
                                       "height": HEIGHT, "scale": 0.25}}
        )["data"])
        width, height, bpp, rows = decode_png(small)
        background = bytes(rows[height // 2][:bpp])
        colors, differing = set(), 0
        for row in rows:
            for x in range(0, width * bpp, bpp):
                pixel = bytes(row[x:x + bpp])
                colors.add(pixel)
                differing += pixel != background
        check(len(shot) > 10000 and len(colors) > 20 and
              differing > width * height // 20,
              "screenshot %dx%d not blank: %d colors, %d%% of pixels off the "
              "background" % (width * 4, height * 4, len(colors),
                              100 * differing // (width * height)))

        errors = []
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(params["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and \
                    params.get("type") in ("error", "assert"):
                errors.append(str(params.get("args")))
            elif method == "Log.entryAdded" and \
                    params["entry"].get("level") == "error":
                errors.append(params["entry"].get("text"))
        check(not errors, "no console errors (%s)" % "; ".join(
            str(e) for e in errors))
        requests = [event["params"]["request"]["url"]
                    for event in browser.events
                    if event.get("method") == "Network.requestWillBeSent"]
        check(all(r == url or r.startswith("data:") for r in requests),
              "the page requests nothing but itself (%s)"
              % ", ".join(requests))
    finally:
        browser.close()
        shutil.rmtree(user_data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
