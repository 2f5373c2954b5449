package dev.guard.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port that refuses every connection, held for as long as a test needs it: a socket
 * bound to the port that never listens. Unlike a port probed and released, no other process can
 * start listening on it meanwhile, so "nothing answers there" stays true.
 *
 * <pre>{@code
 * try (RefusingPort closed = RefusingPort.open()) {
 *   String uri = "redis://127.0.0.1:" + closed.port(); // every connection is refused
 * }
 * }</pre>
 */
public final class RefusingPort implements AutoCloseable {

  private final Socket holder;

  private RefusingPort(Socket holder) {
    this.holder = holder;
  }

  /**
   * Binds a port of the system's choosing on 127.0.0.1, without listening on it.
   *
   * @return the held port
   * @throws IOException when no port can be bound
   */
  public static RefusingPort open() throws IOException {
    Socket holder = new Socket();
    try {
      holder.setReuseAddress(false);
      holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return new RefusingPort(holder);
    } catch (IOException | RuntimeException failed) {
      holder.close();
      throw failed;
    }
  }

  /**
   * The port where connections are refused.
   *
   * @return the port on 127.0.0.1
   */
  public int port() {
    return holder.getLocalPort();
  }

  /**
   * Releases the port.
   *
   * @throws IOException when the socket cannot be closed
   */
  @Override
  public void close() throws IOException {
    holder.close();
  }
}
