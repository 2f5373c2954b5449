import org.jspecify.annotations.NullMarked;

/**
 * gRPC adapters for guard: a server interceptor that guards every call a grpc-java server
 * receives, and a client interceptor that guards every call a channel makes. Needs only
 * {@code grpc-api}; the application brings its transport (Netty, OkHttp, in-process).
 */
@NullMarked
module dev.guard.grpc {
  requires transitive dev.guard.engine;
  requires transitive io.grpc;

  exports dev.guard.grpc;
}
