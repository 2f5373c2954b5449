package dev.guard.kotlin

import dev.guard.dashboard.GuardDashboard
import dev.guard.grpc.GuardServerInterceptor
import dev.guard.gateway.GuardGatewayFilterFactory
import dev.guard.http.HttpInbound
import dev.guard.micrometer.GuardMetrics
import dev.guard.reactor.GuardedPublishers
import dev.guard.redis.RedisTokenService
import dev.guard.rules.RuleFormat
import dev.guard.vavr.VavrCalls
import dev.guard.spring.client.GuardClientInterceptor
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The add-on modules' public surface grows only on purpose, as the core's does (guard-testkit-traffic's
 * PublicApiSurfaceTest): every public type in an exported package of rules, redis, http,
 * micrometer, dashboard, reactor and gateway is listed in `modules-api-surface.txt`, and every listed type exists.
 */
class ModulesApiSurfaceTest {

    private val anchors = listOf(
        RuleFormat::class.java, RedisTokenService::class.java, HttpInbound::class.java,
        GuardMetrics::class.java,
        GuardDashboard::class.java,
        GuardedPublishers::class.java,
        VavrCalls::class.java,
        GuardServerInterceptor::class.java,
        GuardClientInterceptor::class.java,
        GuardGatewayFilterFactory::class.java,
    )

    @Test
    fun publicTypesInExportedPackages_areExactlyTheReviewedList() {
        val actual = anchors.flatMap { PublicTypes.of(it) }.toSortedSet()
        val reviewed = javaClass.getResourceAsStream("modules-api-surface.txt")!!.bufferedReader()
            .readLines().map { it.trim() }.filter { it.isNotEmpty() && !it.startsWith("#") }.toSortedSet()

        assertThat(actual - reviewed).`as`("public types missing from modules-api-surface.txt").isEmpty()
        assertThat(reviewed - actual).`as`("listed types that are gone or not public").isEmpty()
    }
}
