package dev.guard.grpc;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The echo service on both transports the tests use: grpc-netty on a loopback port it bound
 * itself (port 0, then the bound port read back) and the in-process transport, each with a
 * channel to it. The service's interceptor is set per test ({@link #guard}), so one test class
 * starts its servers once.
 */
final class Servers implements AutoCloseable {

  enum Transport { IN_PROCESS, NETTY }

  final EchoService service = new EchoService();
  private volatile ServerInterceptor guard = Servers::passThrough;
  private final Server inProcess;
  private final Server netty;
  private final ManagedChannel inProcessChannel;
  private final ManagedChannel nettyChannel;

  private Servers() throws IOException {
    String name = InProcessServerBuilder.generateName();
    ServerInterceptor current = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        return guard.interceptCall(call, headers, next);
      }
    };
    inProcess = InProcessServerBuilder.forName(name)
        .addService(ServerInterceptors.intercept(service.definition(), current)).build().start();
    netty = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .addService(ServerInterceptors.intercept(service.definition(), current)).build().start();
    inProcessChannel = InProcessChannelBuilder.forName(name).build();
    nettyChannel = NettyChannelBuilder.forAddress(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), netty.getPort())).usePlaintext()
        .build();
  }

  static Servers start() throws IOException {
    return new Servers();
  }

  private static <Q, R> ServerCall.Listener<Q> passThrough(ServerCall<Q, R> call,
      Metadata headers, ServerCallHandler<Q, R> next) {
    return next.startCall(call, headers);
  }

  /** Sets the interceptor the service's calls go through from now on. */
  void guard(ServerInterceptor interceptor) {
    this.guard = interceptor;
    service.hanging.clear();
    service.started.set(0);
    service.nested = () -> {};
  }

  /** Lets the service's calls through unguarded from now on. */
  void unguarded() {
    guard(Servers::passThrough);
  }

  ManagedChannel channel(Transport transport) {
    return transport == Transport.NETTY ? nettyChannel : inProcessChannel;
  }

  @Override
  public void close() throws InterruptedException {
    inProcessChannel.shutdownNow();
    nettyChannel.shutdownNow();
    inProcess.shutdownNow();
    netty.shutdownNow();
    inProcessChannel.awaitTermination(10, TimeUnit.SECONDS);
    nettyChannel.awaitTermination(10, TimeUnit.SECONDS);
    inProcess.awaitTermination(10, TimeUnit.SECONDS);
    netty.awaitTermination(10, TimeUnit.SECONDS);
  }
}
