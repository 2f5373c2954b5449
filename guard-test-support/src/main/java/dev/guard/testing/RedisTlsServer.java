package dev.guard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code redis-server} that speaks only TLS, on loopback, with a certificate made for the
 * test: a new certificate authority and a server certificate it signed for {@code 127.0.0.1} and
 * {@code localhost} (elliptic-curve keys, made by {@code openssl} in a temporary directory in a
 * few milliseconds). Clients present no certificate. The port is bound as {@link RedisServer}
 * binds its own. Fails loudly (never skips) when {@code redis-server} or {@code openssl} is
 * missing.
 *
 * <pre>{@code
 * try (RedisTlsServer redis = RedisTlsServer.start()) {
 *   RedisConnection connection = RedisConnection.builder(redis.uri())
 *       .ssl(SslOptions.builder().trustManager(redis.caCertificate().toFile()).build())
 *       .build();
 * }
 * }</pre>
 */
public final class RedisTlsServer implements AutoCloseable {

  private final RedisServer server;
  private final Path caCertificate;
  private final Path strangerCertificate;

  private RedisTlsServer(RedisServer server, Path caCertificate, Path strangerCertificate) {
    this.server = server;
    this.caCertificate = caCertificate;
    this.strangerCertificate = strangerCertificate;
  }

  /**
   * Makes the certificates and starts the server.
   *
   * @return the running server, ready for TLS connections
   * @throws IOException when a process cannot be started
   * @throws InterruptedException when interrupted while waiting
   * @throws IllegalStateException when the certificates could not be made or the server did not
   *     start; the message says why
   */
  public static RedisTlsServer start() throws IOException, InterruptedException {
    Path certificates = Files.createTempDirectory("guard-redis-tls");
    Path ca = certificates.resolve("ca.crt");
    Path cert = certificates.resolve("server.crt");
    Path key = certificates.resolve("server.key");
    Path stranger = certificates.resolve("stranger.crt");
    makeCertificates(certificates, ca, cert, key);
    RedisServer.run(List.of(RedisServer.executable("openssl"), "req", "-x509", "-newkey", "ec",
        "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
        certificates.resolve("stranger.key").toString(), "-out", stranger.toString(), "-days",
        "2", "-subj", "/CN=guard test stranger"));
    RedisServer server = RedisServer.start((port, dir) -> {
      List<String> command = new ArrayList<>(List.of(RedisServer.executable("redis-server"),
          "--port", "0", "--tls-port", Integer.toString(port), "--bind", "127.0.0.1",
          "--save", "", "--appendonly", "no", "--dir", dir.toString(),
          "--tls-cert-file", cert.toString(), "--tls-key-file", key.toString(),
          "--tls-ca-cert-file", ca.toString(), "--tls-auth-clients", "no"));
      return command;
    });
    return new RedisTlsServer(server, ca, stranger);
  }

  private static void makeCertificates(Path dir, Path ca, Path cert, Path key)
      throws IOException, InterruptedException {
    String openssl = RedisServer.executable("openssl");
    Path caKey = dir.resolve("ca.key");
    Path request = dir.resolve("server.csr");
    Path names = dir.resolve("names.cnf");
    Files.writeString(names, "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    RedisServer.run(List.of(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", caKey.toString(), "-out",
        ca.toString(), "-days", "2", "-subj", "/CN=guard test CA"));
    RedisServer.run(List.of(openssl, "req", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out",
        request.toString(), "-subj", "/CN=localhost"));
    RedisServer.run(List.of(openssl, "x509", "-req", "-in", request.toString(), "-CA",
        ca.toString(), "-CAkey", caKey.toString(), "-CAcreateserial", "-out", cert.toString(),
        "-days", "2", "-extfile", names.toString()));
  }

  /**
   * Where the server listens.
   *
   * @return {@code rediss://127.0.0.1:port}
   */
  public String uri() {
    return "rediss://127.0.0.1:" + server.port();
  }

  /**
   * The server's TLS port on 127.0.0.1.
   *
   * @return the port
   */
  public int port() {
    return server.port();
  }

  /**
   * The certificate of the authority that signed the server's certificate (PEM): what a client
   * must trust.
   *
   * @return the file
   */
  public Path caCertificate() {
    return caCertificate;
  }

  /**
   * The certificate of another authority (PEM), which signed nothing of this server: a client
   * that trusts only it rejects the server's certificate.
   *
   * @return the file
   */
  public Path strangerCertificate() {
    return strangerCertificate;
  }

  /**
   * What the server has logged so far.
   *
   * @return its output
   */
  public String log() {
    return server.log();
  }

  /** Kills the server (no shutdown save). */
  @Override
  public void close() throws InterruptedException {
    server.close();
  }
}
