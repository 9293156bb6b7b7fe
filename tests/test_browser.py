"""A real browser: JupyterLab on localhost, headless Debian chromium driven by playwright,
on a real library (`rich`, fetched at run time).

Opens the outline lab and the call-chain notebooks in a temporary copy of the notebooks
folder (their REPO parameter set to rich), runs all cells from the Run menu, checks that the
widgets and plotly figures rendered, changes the outline format and waits for the outline
text to change, expands a collapsed group of the call chain with a click, and saves
screenshots under tests/_artifacts/browser/.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "_artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} missing: .ci/run installs the Debian chromium package")
    pytest.skip(f"{CHROMIUM} not installed (apt-get install -y chromium)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, rich_repo):
    """A JupyterLab server (token disabled) on a free localhost port, rooted at a temporary
    copy of notebooks/ whose REPO parameter is the rich library; yields its base URL."""
    import nbformat

    from workbench.notebooks import inject_parameters
    root = tmp_path_factory.mktemp("lab")
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        book = nbformat.read(nb, as_version=4)
        inject_parameters(book, {"REPO": str(rich_repo), "SMALL": True})
        nbformat.write(book, root / nb.name)
    settings = root / ".lab-settings"
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    # No "news" pop-up and no update check: nothing that needs the network or covers the page.
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # Start the notebook's kernel without asking ("Select Kernel" dialog).
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"autoStartDefaultKernel": True}))
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings),
               JUPYTERLAB_WORKSPACES_DIR=str(root / ".lab-workspaces"),
               PLOOMBER_STATS_ENABLED="false", PLOOMBER_VERSION_CHECK_DISABLED="true",
               XDG_CACHE_HOME=str(root / ".cache"))
    port = _free_port()
    log = open(root / "jupyterlab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         "--ip=127.0.0.1", f"--port={port}", "--ServerApp.token=", "--ServerApp.password=",
         f"--ServerApp.root_dir={root}", "--LabApp.news_url=None"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("JupyterLab did not start:\n" + (root / "jupyterlab.log").read_text()[-3000:])
            time.sleep(0.5)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _accept_kernel_dialog(page) -> bool:
    """Accept a "Select Kernel" dialog (the notebook's preferred kernel) if one is showing."""
    button = page.locator(".jp-Dialog .jp-mod-accept")
    if button.count():
        button.first.click()
        return True
    return False


def _kernel_idle(lab: str, name: str) -> bool:
    try:                                        # a busy server may not answer in time: ask again
        with urllib.request.urlopen(f"{lab}/api/sessions", timeout=15) as r:
            sessions = json.load(r)
    except OSError:                             # timeouts and URLError are OSErrors
        return False
    return any(s.get("path", "").endswith(f"{name}.ipynb") and s.get("kernel")
               and s["kernel"].get("execution_state") == "idle" for s in sessions)


def _run_all(page):
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def _open_and_run_all(browser, lab: str, name: str):
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    page.set_default_timeout(120_000)
    page.goto(f"{lab}/lab/tree/{name}.ipynb")
    page.wait_for_selector(".jp-Notebook")
    deadline = time.monotonic() + 120
    while not _kernel_idle(lab, name):          # the server says the kernel is up and idle
        _accept_kernel_dialog(page)
        if time.monotonic() > deadline:
            raise TimeoutError(f"no idle kernel for {name} after 120s")
        page.wait_for_timeout(300)
    _run_all(page)
    return page


def _wait_for(page, selector: str, timeout_s: float):
    """Wait for `selector`; a late "Select Kernel" dialog is accepted and Run All repeated."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if _accept_kernel_dialog(page):
            page.wait_for_timeout(1000)
            _run_all(page)
        if page.locator(selector).count():
            return page.locator(selector).first.wait_for(state="attached")
        page.wait_for_timeout(250)
    raise TimeoutError(f"{selector!r} did not appear within {timeout_s}s")


def _wait_until_idle(page, timeout_s: float = 420):
    """Wait until no cell shows ``[*]`` and the kernel indicator says idle."""
    page.wait_for_function(
        """() => ![...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*'))
                 && document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']")""",
        timeout=timeout_s * 1000)


def _errors(page) -> list[str]:
    return page.eval_on_selector_all(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'] pre, "
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']",
        "els => els.map(e => e.innerText).filter(t => /Error|Traceback/.test(t))")


def test_outline_lab_runs_renders_widgets_and_reacts_to_an_option(lab, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("01_outline_lab*.png"):
        old.unlink()
    page = _open_and_run_all(browser, lab, "01_outline_lab")
    try:
        _wait_for(page, ".wb-outline-browser pre.wb-outline", 420)
        _wait_for(page, ".js-plotly-plot .main-svg", 420)
        _wait_until_idle(page)
        assert not _errors(page), _errors(page)
        assert page.locator(".jupyter-widgets").count() > 3          # widget views rendered
        assert page.locator(".js-plotly-plot").count() >= 1         # a plotly figure rendered

        browser_box = page.locator(".wb-outline-browser").first
        browser_box.scroll_into_view_if_needed()
        outline = browser_box.locator("pre.wb-outline").first
        # textContent, not innerText: JupyterLab may skip layout of cells outside the viewport
        before = outline.text_content()
        assert before.strip()
        page.screenshot(path=str(ARTIFACTS / "01_outline_lab_before.png"))

        select = browser_box.locator(".wb-format select").first
        options = select.locator("option").all_inner_texts()
        current = select.input_value()
        other = next(o for o in options if o != current)
        select.select_option(label=other)
        # The HTML widget replaces its content, so query the element afresh each time.
        page.wait_for_function(
            """(before) => { const el = document.querySelector('.wb-outline-browser pre.wb-outline');
                             return el && el.textContent !== before; }""", arg=before, timeout=30_000)
        after = browser_box.locator("pre.wb-outline").first.text_content()
        assert after != before and after.strip()
        badge = browser_box.locator(".wb-badge").first.text_content()
        assert f"format {other}" in badge
        browser_box.screenshot(path=str(ARTIFACTS / "01_outline_lab_widget_after.png"))
        page.screenshot(path=str(ARTIFACTS / "01_outline_lab_after.png"))
        plot = page.locator(".js-plotly-plot").first
        plot.scroll_into_view_if_needed()
        page.wait_for_timeout(1500)                 # let the scrolled-to cells paint
        page.screenshot(path=str(ARTIFACTS / "01_outline_lab_plot.png"))
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "01_outline_lab_failure.png"), full_page=True)
        raise
    finally:
        page.close()


def test_call_chains_graph_renders_inside_the_widget_and_follows_the_depth(lab, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("02_call_chains*.png"):
        old.unlink()
    page = _open_and_run_all(browser, lab, "02_call_chains")
    try:
        _wait_for(page, ".wb-callchain .js-plotly-plot .main-svg", 420)
        _wait_until_idle(page)
        assert not _errors(page), _errors(page)
        box = page.locator(".wb-callchain").first
        box.scroll_into_view_if_needed()
        page.wait_for_timeout(1000)
        summary = box.locator(".wb-chain-summary").first.text_content()
        assert "nodes" in summary and "resolved call edges" in summary
        assert "rich" in summary and "collapsed by" in summary       # a real chain, collapsed
        box.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / "02_call_chains_graph.png"))
        box.locator(".wb-groups").first.scroll_into_view_if_needed()
        page.wait_for_timeout(1000)
        page.screenshot(path=str(ARTIFACTS / "02_call_chains_widget.png"))   # graph and group buttons
        # expand-on-click: the first collapsed group's button draws its members
        button = box.locator(".wb-expand button, button.wb-expand").first
        label = button.text_content()
        button.click()
        page.wait_for_function(
            """(before) => { const el = document.querySelector('.wb-callchain .wb-chain-summary');
                             return el && el.textContent !== before; }""", arg=summary, timeout=60_000)
        expanded = box.locator(".wb-chain-summary").first.text_content()
        assert expanded != summary and label.strip().startswith("expand")
        page.wait_for_timeout(1500)
        box.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / "02_call_chains_expanded.png"))
        summary = expanded
        box.locator(".wb-depth").first.click()            # focus the slider, then step it down
        page.keyboard.press("Home")
        page.wait_for_function(
            """(before) => { const el = document.querySelector('.wb-callchain .wb-chain-summary');
                             return el && el.textContent !== before; }""", arg=summary, timeout=30_000)
        assert box.locator(".wb-chain-summary").first.text_content() != summary
        page.wait_for_timeout(1000)
        box.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / "02_call_chains_graph_depth1.png"))
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "02_call_chains_failure.png"), full_page=True)
        raise
    finally:
        page.close()
