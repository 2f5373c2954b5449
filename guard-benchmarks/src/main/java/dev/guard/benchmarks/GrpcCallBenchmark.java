package dev.guard.benchmarks;

import dev.guard.engine.GuardEngine;
import dev.guard.grpc.GuardClientInterceptor;
import dev.guard.grpc.GuardServerInterceptor;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What guard-grpc adds to a gRPC call: one unary call on the in-process transport (direct
 * executors, so the figure is the call path, not thread hand-offs), unguarded, through the server
 * interceptor, and through both interceptors. The resource has no rules: the cost of the
 * statistics, the context and the call wrappers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class GrpcCallBenchmark {

  static final MethodDescriptor.Marshaller<String> STRINGS = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  static final MethodDescriptor<String, String> ECHO = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("bench.Echo/Say")
      .setRequestMarshaller(STRINGS).setResponseMarshaller(STRINGS).build();

  /** An in-process server and channel, guarded as {@link #guard} says. */
  @State(Scope.Benchmark)
  public static class Call {
    /** none, server (the server interceptor), both (the server and the client interceptor). */
    @Param({"none", "server", "both"})
    public String guard = "none";

    @SuppressWarnings("NullAway.Init") // set up by start(), before any call
    private Server server;
    @SuppressWarnings("NullAway.Init")
    private ManagedChannel managed;
    @SuppressWarnings("NullAway.Init")
    private Channel channel;

    /** Starts the server and checks one call. */
    @Setup(Level.Trial)
    public void start() throws IOException {
      GuardEngine engine = GuardEngine.builder().build();
      ServerServiceDefinition service = ServerServiceDefinition.builder("bench.Echo")
          .addMethod(ECHO, ServerCalls.asyncUnaryCall((String request, io.grpc.stub.StreamObserver<String> out) -> {
            out.onNext(request);
            out.onCompleted();
          }))
          .build();
      if (!guard.equals("none")) {
        service = ServerInterceptors.intercept(service, GuardServerInterceptor.of(engine));
      }
      String name = InProcessServerBuilder.generateName();
      server = InProcessServerBuilder.forName(name).directExecutor().addService(service).build()
          .start();
      managed = InProcessChannelBuilder.forName(name).directExecutor().build();
      channel = guard.equals("both")
          ? ClientInterceptors.intercept(managed, GuardClientInterceptor.of(engine)) : managed;
      Sanity.require("hello".equals(call()), "the echo call answers");
    }

    String call() {
      return ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, "hello");
    }

    /** Stops the channel and the server. */
    @TearDown(Level.Trial)
    public void stop() {
      managed.shutdownNow();
      server.shutdownNow();
    }
  }

  /** One blocking unary call. */
  @Benchmark
  public Object unary(Call call) {
    return call.call();
  }
}
