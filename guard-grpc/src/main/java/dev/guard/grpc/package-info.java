/**
 * Protects the calls of a gRPC service and the calls it makes with a {@link
 * dev.guard.engine.GuardEngine}.
 *
 * <p>Inbound: {@link dev.guard.grpc.GuardServerInterceptor} enters each received call (unary or
 * streaming, one call from start to close) as an inbound call of the resource named by its full
 * method name, in the entrance and origin its settings give, and closes a refused call with a
 * status before the handler starts. Outbound: {@link dev.guard.grpc.GuardClientInterceptor} does
 * the same for a channel's calls, failing a refused call before anything is sent. {@link
 * dev.guard.grpc.GrpcStatuses} holds what both say in gRPC's terms: the status of a refusal, the
 * retry pushback trailer and the status codes counted as errors. The exact behaviour is described
 * in the project's {@code docs/GRPC.md}.
 */
@NullMarked
package dev.guard.grpc;

import org.jspecify.annotations.NullMarked;
