"""A minimal W3C WebDriver client over httpx, for driving headless Chromium through chromedriver in tests.

Only what the viewer's end-to-end test needs: a session, navigation, finding and clicking elements,
running a script, a screenshot. Chromium starts headless with no sandbox, no GPU and no network
services of its own; the page it visits is the viewer on 127.0.0.1.
"""

from __future__ import annotations

import base64
import shutil
import socket
import subprocess
import time
from typing import Any

import httpx

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def find_browser() -> tuple[str | None, str | None]:
    """(chromium, chromedriver) paths, None where missing."""
    browser = next((p for name in CHROMIUM_NAMES if (p := shutil.which(name))), None)
    return browser, shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebDriverError(RuntimeError):
    pass


class Browser:
    """chromedriver on a loopback port and one headless Chromium session."""

    def __init__(self, chromium: str, chromedriver: str, profile_dir: str, *, width: int = 1400,
                 height: int = 900) -> None:
        self.port = free_port()
        self.driver = subprocess.Popen([chromedriver, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60.0)
        self.session: str | None = None
        try:
            self._wait_ready()
            args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--no-first-run",
                    "--disable-sync", "--disable-extensions", "--disable-default-apps",
                    f"--user-data-dir={profile_dir}", f"--window-size={width},{height}"]
            caps = {"capabilities": {"alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": {"binary": chromium, "args": args}}}}
            self.session = self._call("POST", "/session", caps)["sessionId"]
        except BaseException:
            self.close()
            raise

    def _wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.driver.poll() is not None:
                raise WebDriverError(f"chromedriver exited with {self.driver.returncode}")
            try:
                if self.http.get("/status").json()["value"]["ready"]:
                    return
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            time.sleep(0.1)
        raise WebDriverError("chromedriver did not become ready")

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        r = self.http.request(method, path, json=body)
        data = r.json()
        value = data.get("value") if isinstance(data, dict) else None
        if r.status_code >= 400:
            error = value.get("error") if isinstance(value, dict) else None
            message = value.get("message", "")[:300] if isinstance(value, dict) else ""
            raise WebDriverError(f"{error}: {message}")
        return value

    def _s(self, path: str) -> str:
        return f"/session/{self.session}{path}"

    def get(self, url: str) -> None:
        self._call("POST", self._s("/url"), {"url": url})

    def find_all(self, css: str) -> list[str]:
        return [e[ELEMENT] for e in self._call("POST", self._s("/elements"), {"using": "css selector", "value": css})]

    def click(self, element: str) -> None:
        self._call("POST", self._s(f"/element/{element}/click"), {})

    def text(self, element: str) -> str:
        return str(self._call("GET", self._s(f"/element/{element}/text")))

    def script(self, source: str, *args: Any) -> Any:
        return self._call("POST", self._s("/execute/sync"), {"script": source, "args": list(args)})

    def alert_open(self) -> bool:
        try:
            self._call("GET", self._s("/alert/text"))
            return True
        except WebDriverError as exc:
            if "no such alert" in str(exc):
                return False
            raise

    def screenshot(self) -> bytes:
        return base64.b64decode(self._call("GET", self._s("/screenshot")))

    def wait_for(self, source: str, *args: Any, timeout: float = 20.0) -> Any:
        """Poll a script until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.script(source, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise WebDriverError(f"timed out waiting for: {source}")
            time.sleep(0.1)

    def close(self) -> None:
        try:
            if self.session:
                self._call("DELETE", self._s(""))
        except (WebDriverError, httpx.HTTPError, ValueError):
            pass
        finally:
            self.session = None
            self.http.close()
            self.driver.terminate()
            try:
                self.driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
                self.driver.wait(timeout=10)
