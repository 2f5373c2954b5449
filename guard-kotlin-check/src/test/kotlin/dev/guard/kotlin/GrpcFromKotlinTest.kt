package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.api.rule.RuleSet
import dev.guard.engine.GuardEngine
import dev.guard.grpc.GrpcStatuses
import dev.guard.grpc.GuardClientInterceptor
import dev.guard.grpc.GuardServerInterceptor
import dev.guard.testkit.ManualClock
import io.grpc.CallOptions
import io.grpc.ClientInterceptors
import io.grpc.Metadata
import io.grpc.MethodDescriptor
import io.grpc.ServerServiceDefinition
import io.grpc.Status
import io.grpc.StatusRuntimeException
import io.grpc.inprocess.InProcessChannelBuilder
import io.grpc.inprocess.InProcessServerBuilder
import io.grpc.stub.ClientCalls
import io.grpc.stub.MetadataUtils
import io.grpc.stub.ServerCalls
import java.io.InputStream
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test

/**
 * The gRPC interceptors from Kotlin: builders take plain trailing lambdas, and the rules come from
 * the DSL like any resource's; an in-process server with a method on strings (no generated code).
 */
class GrpcFromKotlinTest {

    private val engine = GuardEngine.builder().clock(ManualClock()).build()

    private object Strings : MethodDescriptor.Marshaller<String> {
        override fun stream(value: String): InputStream = value.byteInputStream()
        override fun parse(stream: InputStream): String = stream.readBytes().decodeToString()
    }

    private val hello = MethodDescriptor.newBuilder<String, String>()
        .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("kotlin.Greeter/Hello")
        .setRequestMarshaller(Strings).setResponseMarshaller(Strings).build()

    @Test
    fun interceptors_readLikeKotlin_withRulesFromTheDsl() {
        val callerKey = Metadata.Key.of("x-caller", Metadata.ASCII_STRING_MARSHALLER)
        val server = GuardServerInterceptor.builder(engine)
            .entrance("kotlin")
            .origin { _, headers -> headers.get(callerKey) ?: "" }
            .arguments { call, _ -> arrayOf<Any?>(call.methodDescriptor.bareMethodName) }
            .refusalStatus { refused -> GrpcStatuses.refusalStatus(refused).augmentDescription("from kotlin") }
            .errorCodes(setOf(Status.Code.INTERNAL))
            .build()
        val client = GuardClientInterceptor.builder(engine).argumentKeys("x-caller").maxResources(10).build()
        val name = InProcessServerBuilder.generateName()
        val service = ServerServiceDefinition.builder("kotlin.Greeter")
            .addMethod(hello, ServerCalls.asyncUnaryCall { request: String, out ->
                out.onNext("hello $request")
                out.onCompleted()
            })
            .build()
        val running = InProcessServerBuilder.forName(name).addService(service).intercept(server).build().start()
        val channel = InProcessChannelBuilder.forName(name).build()
        try {
            engine.apply(RuleSet.of(Guard.of("kotlin.Greeter/Hello").qps(1).fromOrigin("app").rules()))
            val headers = Metadata().apply { put(callerKey, "app") }
            val guarded = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers))

            val first = ClientCalls.blockingUnaryCall(guarded, hello, CallOptions.DEFAULT, "kotlin")
            val refused = catchThrowableOfType(StatusRuntimeException::class.java) {
                ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(guarded, client), hello, CallOptions.DEFAULT, "again")
            }

            assertThat(first).isEqualTo("hello kotlin")
            assertThat(refused.status.code).isEqualTo(Status.Code.RESOURCE_EXHAUSTED)
            assertThat(refused.status.description).endsWith("from kotlin")
            assertThat(refused.trailers?.get(GrpcStatuses.RETRY_PUSHBACK_MS)).isNotNull()
            // the client's OUT entry (no origin) passed; the server's IN entry from "app" was refused
            assertThat(engine.stats("kotlin.Greeter/Hello").totalPass()).isEqualTo(2)
        } finally {
            channel.shutdownNow()
            running.shutdownNow()
        }
    }
}
