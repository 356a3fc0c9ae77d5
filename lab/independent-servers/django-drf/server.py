#!/usr/bin/env python3
"""Start the sandbox: fresh SQLite database, migrations, seed data, threaded HTTP server.

Environment: PORT (default 8000), SECRET_KEY, SECOND_SECRET_KEY, DEFECT, CALLBACKS.
Listens on 127.0.0.1 only; the API lives under /v1.
"""
import io
import os
import shutil
import signal
import socketserver
import sys
import tempfile

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BASE_DIR)


def main():
    port = int(os.environ.get("PORT", "8000"))
    tmpdir = tempfile.mkdtemp(prefix="paysandbox-")
    os.environ["PAYSANDBOX_DB"] = os.path.join(tmpdir, "db.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "paysandbox.settings")

    def on_sigterm(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_sigterm)

    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0, interactive=False)
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
        from payments.seed import seed

        seed()
        connection.close()

        serve(port)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def serve(port):
    from django.core.servers import basehttp
    from django.core.wsgi import get_wsgi_application

    class Server(socketserver.ThreadingMixIn, basehttp.WSGIServer):
        """Django's runserver server (thread per connection, HTTP/1.1 keep-alive)."""

        daemon_threads = True
        request_queue_size = 128  # Django's default of 10 is small for ~30 concurrent clients

    class RequestHandler(basehttp.WSGIRequestHandler):
        def parse_request(self):
            ok = super().parse_request()
            if ok and "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                # wsgiref does not decode chunked request bodies: de-chunk here
                # so the body is neither lost nor mistaken for the next request.
                body = io.BytesIO()
                while True:
                    size_line = self.rfile.readline(65537)
                    try:
                        size = int(size_line.split(b";")[0].strip(), 16)
                    except ValueError:
                        self.send_error(400, "Bad chunked encoding")
                        return False
                    if size == 0:
                        while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                            pass
                        break
                    body.write(self.rfile.read(size))
                    self.rfile.readline(65537)
                del self.headers["Transfer-Encoding"]
                self.headers["Content-Length"] = str(body.tell())
                body.seek(0)
                self._chunked_body = body
            else:
                self._chunked_body = None
            return ok

        def handle_one_request(self):
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline = ""
                self.request_version = ""
                self.command = ""
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            stdin = self._chunked_body if self._chunked_body is not None else self.rfile
            handler = basehttp.ServerHandler(stdin, self.wfile, self.get_stderr(), self.get_environ())
            handler.request_handler = self
            handler.run(self.server.get_app())

    django_app = get_wsgi_application()

    def application(environ, start_response):
        result = django_app(environ, start_response)
        if environ.get("REQUEST_METHOD") == "HEAD":
            # Django's development server would send the body of a HEAD
            # response, which desynchronises keep-alive clients: drop it.
            if hasattr(result, "close"):
                result.close()
            return []
        return result

    httpd = Server(("127.0.0.1", port), RequestHandler)
    httpd.set_app(application)
    sys.stderr.write("Payment Collection sandbox listening on http://127.0.0.1:%d/v1\n" % port)
    sys.stderr.flush()
    try:
        httpd.serve_forever()
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
