#!/usr/bin/env python3
"""Unit tests of hotstrings_client.py that need no daemon: socket path resolution and the
event-stream rules of docs/PROTOCOL.md, played by a fake daemon on a socket pair.
Run: python3 examples/test_hotstrings_client.py"""

import json
import os
import socket
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hotstrings_client  # noqa: E402


def event(name, epoch, seq, **fields):
    return json.dumps(dict(event=name, epoch=epoch, seq=seq, **fields)).encode() + b"\n"


class SocketPathTests(unittest.TestCase):
    def test_resolution_order(self):
        resolve = hotstrings_client.resolve_socket_path
        environ = {"HOTSTRINGS_SOCKET": "/e.sock", "XDG_RUNTIME_DIR": "/run/u"}
        self.assertEqual(resolve("/o.sock", environ, 5), "/o.sock")
        self.assertEqual(resolve(None, environ, 5), "/e.sock")
        self.assertEqual(resolve(None, {"HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u/"}, 5),
                         "/run/u/hotstrings.sock")
        self.assertEqual(resolve(None, {"XDG_RUNTIME_DIR": "relative"}, 5), "/tmp/hotstrings-5.sock")
        self.assertEqual(resolve("", {}, 7), "/tmp/hotstrings-7.sock")


class EventStreamTests(unittest.TestCase):
    def setUp(self):
        self.client_end, self.daemon_end = socket.socketpair()
        self.client = hotstrings_client.Client(self.client_end)

    def tearDown(self):
        self.client.close()
        self.daemon_end.close()

    def run_daemon(self, script):
        """Runs `script(reader)` as the daemon on a thread, then closes its side."""
        def daemon():
            script(self.daemon_end.makefile("rb"))
            self.daemon_end.shutdown(socket.SHUT_WR)
        thread = threading.Thread(target=daemon)
        thread.start()
        return thread

    def test_resync_duplicates_and_gaps(self):
        received = []

        def script(reader):
            self.daemon_end.sendall(json.dumps({"id": 1, "ok": True, "epoch": 7, "seq": 1}).encode() + b"\n")
            reader.readline()
            self.daemon_end.sendall(
                event("reload", 7, 2) + event("reload", 7, 2)  # a duplicate is skipped
                + event("resync", 7, 2, reason="slow-client") + event("reload", 7, 3)  # skipped until the snapshot
                + event("snapshot", 7, 3, tables=[]) + event("reload", 7, 3) + event("reload", 7, 4)
                + event("reload", 7, 6)  # a gap: resubscribe
            )
            received.append(json.loads(reader.readline()))
            self.daemon_end.sendall(
                event("reload", 7, 7) + json.dumps({"id": 2, "ok": True, "epoch": 7, "seq": 7}).encode() + b"\n"
                + event("snapshot", 7, 7, tables=[]) + event("reload", 7, 8)
            )

        thread = self.run_daemon(script)
        self.client.request("subscribe", tables=["Localizable"])
        seen = [(item["event"], item["seq"]) for item in self.client.events()]
        thread.join()
        self.assertEqual(seen, [("reload", 2), ("resync", 2), ("snapshot", 3), ("reload", 4),
                                ("snapshot", 7), ("reload", 8)])
        self.assertEqual(received[0]["op"], "subscribe")
        self.assertEqual(received[0]["since"], {"epoch": 7, "seq": 4})
        self.assertEqual(received[0]["tables"], ["Localizable"], "the filters are kept")

    def test_events_before_a_response_are_kept(self):
        def script(reader):
            reader.readline()
            self.daemon_end.sendall(event("language", 3, 5, language="fr", previous=None)
                                    + b'{"id":1,"ok":true,"selected":"fr"}\n')

        thread = self.run_daemon(script)
        self.assertEqual(self.client.request("select-language", language="fr")["selected"], "fr")
        self.assertEqual([item["event"] for item in self.client.events()], ["language"])
        thread.join()

    def test_error_responses_raise(self):
        def script(reader):
            reader.readline()
            self.daemon_end.sendall(b'{"id":1,"ok":false,"error":{"code":"unsupported_language",'
                                    b'"message":"unsupported language \'xx\'","available":["de"]}}\n')

        thread = self.run_daemon(script)
        with self.assertRaises(hotstrings_client.ProtocolError) as raised:
            self.client.request("select-language", language="xx")
        thread.join()
        self.assertEqual(raised.exception.code, "unsupported_language")
        self.assertEqual(raised.exception.available, ["de"])


if __name__ == "__main__":
    unittest.main()
