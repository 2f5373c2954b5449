package dev.guard.kotlin

import com.sun.net.httpserver.HttpServer
import dev.guard.api.rule.FlowRule
import dev.guard.engine.GuardEngine
import dev.guard.http.GuardHttpServerFilter
import dev.guard.http.HttpInbound
import dev.guard.http.HttpOutbound
import dev.guard.testkit.ManualClock
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse.BodyHandlers
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The HTTP adapters from Kotlin: settings take plain trailing lambdas; a real JDK server on loopback. */
class HttpFromKotlinTest {

    private val engine = GuardEngine.builder().clock(ManualClock()).build()

    @Test
    fun inboundAndOutbound_readLikeKotlin() {
        val inbound = HttpInbound.of(engine)
            .entrance("kotlin")
            .origin { request -> request.header("X-Caller").orElse("") }
            .pathCleaner { path -> HttpInbound.defaultPathCleaner().apply(path.lowercase()) }
            .errorStatuses { it >= 400 }
            .refusalResponse { refused -> HttpInbound.RefusalResponse(429, "text/plain", "busy: ${refused.resource()}", Duration.ofSeconds(1)) }
        val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0)
        server.createContext("/") { exchange ->
            exchange.sendResponseHeaders(204, -1)
            exchange.close()
        }.filters.add(GuardHttpServerFilter.of(inbound))
        server.start()
        try {
            engine.apply(engine.ruleSet().withRulesOf("GET /items/{id}", listOf(FlowRule.qps("GET /items/{id}", 1.0))))
            val client = HttpOutbound.of(engine).perPath(HttpInbound.defaultPathCleaner()).errorStatuses { it >= 500 }
                .decorate(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build())
            val base = "http://127.0.0.1:${server.address.port}"

            val first = client.send(HttpRequest.newBuilder(URI.create("$base/items/1")).build(), BodyHandlers.ofString())
            val second = client.sendAsync(HttpRequest.newBuilder(URI.create("$base/ITEMS/2")).build(), BodyHandlers.ofString()).get()

            assertThat(first.statusCode()).isEqualTo(204)
            assertThat(second.statusCode()).isEqualTo(429)
            assertThat(second.body()).isEqualTo("busy: GET /items/{id}")
            assertThat(second.headers().firstValue("Retry-After")).hasValue("1")
            assertThat(engine.stats("GET $base/items/{id}").totalPass()).isEqualTo(1)
        } finally {
            server.stop(0)
        }
    }
}
