package dev.guard.kotlin

import dev.guard.spi.RulePart

import dev.guard.api.rule.ClusterMode
import dev.guard.api.rule.FlowRule
import dev.guard.dashboard.GuardDashboard
import dev.guard.engine.GuardEngine
import dev.guard.testkit.InMemoryTokenService
import dev.guard.engine.MetricsLog
import dev.guard.redis.RedisTokenService
import dev.guard.rules.PollingRuleSource
import dev.guard.rules.RuleFormat
import dev.guard.testkit.ManualClock
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse.BodyHandlers
import java.nio.file.Files
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** Operating guard from Kotlin: metrics files, a custom rule store, the dashboard, token services. */
class OperationsFromKotlinTest {

    private val clock = ManualClock()

    /** A rule store written in Kotlin: only how to look at it. */
    private class MapRuleSource(private val store: MutableMap<String, String>) :
        PollingRuleSource("map:rules", Duration.ofSeconds(5)) {
        private var applied: String? = null

        override fun look(first: Boolean) {
            val document = store["rules"] ?: return
            if (document != applied) {
                applied = document
                apply(RuleFormat.parse(document))
            }
        }
    }

    @Test
    fun metricsLog_andACustomRuleSource_readLikeKotlin() {
        val engine = GuardEngine.builder().clock(clock).build()
        val store = mutableMapOf("rules" to """{"version": 1, "flow": [{"resource": "search", "qps": 1}]}""")
        MapRuleSource(store).use { source ->
            engine.attach(source, RulePart.all())
            assertThat(engine.rules("search")).containsExactly(FlowRule.qps("search", 1.0))
        }
        val dir = Files.createTempDirectory("guard-kotlin")
        MetricsLog.builder(engine, dir).maxFiles(2).open().use { log ->
            engine.resource("search").call(Unit) { "found" }
            clock.advanceMillis(1000)
            val lines: Int = log.writeRecorded()
            val error: java.io.IOException? = log.lastError()
            assertThat(lines).isEqualTo(1)
            assertThat(error).isNull()
        }
    }

    @Test
    fun dashboardAndTokenServices_readLikeKotlin() {
        val tokens = InMemoryTokenService(clock)
        val engine = GuardEngine.builder().clock(clock).tokenService(tokens.connect("shop")).build()
        engine.apply(engine.ruleSet().withRulesOf("orders", listOf(FlowRule.qps("orders", 10.0).withCluster(ClusterMode.global("orders")))))
        val sharing = engine.tokenService().map { it.instances("orders").orElse(0) }.orElse(0)
        assertThat(sharing).isEqualTo(1)

        GuardDashboard.of(engine).start().use { dashboard ->
            val response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(dashboard.uri().resolve("api/overview")).build(), BodyHandlers.ofString())
            assertThat(response.statusCode()).isEqualTo(200)
            assertThat(dashboard.browserUri()).isInstanceOf(URI::class.java)
        }

        val redis: RedisTokenService = RedisTokenService.builder("redis://127.0.0.1:1", "shop")
            .requestTimeout(Duration.ofMillis(20))
            .windowClock(clock)
            .lease(8)
            .onAvailability { available -> println("redis available: $available") }
            .build()
        redis.close()
    }
}
