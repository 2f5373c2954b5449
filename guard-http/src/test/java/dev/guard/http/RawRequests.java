package dev.guard.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Sends one request over a fresh socket exactly as written (no client normalizes its target) and
 * reads the whole response: the connection is closed by the server after it.
 */
final class RawRequests {

  private RawRequests() {}

  /** Sends {@code METHOD target} with the extra header lines and returns the response status. */
  static int status(URI base, String method, String target, String... headerLines)
      throws IOException {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout((int) TestApp.WAIT_SECONDS * 1000);
      StringBuilder request = new StringBuilder()
          .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
          .append("Host: ").append(base.getHost()).append("\r\n")
          .append("Connection: close\r\n");
      for (String line : headerLines) {
        request.append(line).append("\r\n");
      }
      OutputStream out = socket.getOutputStream();
      out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      if (!response.startsWith("HTTP/1.1 ")) {
        throw new IOException("no HTTP response to " + method + " " + target + ": " + response);
      }
      return Integer.parseInt(response.substring(9, 12));
    }
  }
}
