package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.api.RefusedException
import dev.guard.api.EntryType
import dev.guard.api.rule.SystemRule
import dev.guard.engine.GuardEngine
import dev.guard.testkit.FakeSystemStatus
import dev.guard.testkit.ManualClock
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/** Origin lists and system protection from Kotlin: varargs, nullable thresholds, the fake status. */
class ProtectionsFromKotlinTest {

    private val status = FakeSystemStatus()
    private val engine = GuardEngine.builder().clock(ManualClock()).systemStatus(status).build()

    @Test
    fun originLists_takeVarargs() {
        val admin = Guard.of("admin").allowOrigins("ops-console", "billing").origin("scraper").on(engine)

        assertThatThrownBy { admin.run { } }
            .isInstanceOfSatisfying(RefusedException.Origin::class.java) { refused ->
                assertThat(refused.origin()).isEqualTo("scraper")
            }
    }

    @Test
    fun systemRules_haveNullableThresholds_andRefusalsNameTheLimit() {
        val rule = SystemRule.of().withMaxCpuUsage(0.8).withMaxAverageRt(Duration.ofMillis(200))
            .withMaxConcurrency(100).withMaxSystemLoad(2.0)
        engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, listOf(rule)))
        status.cpuUsage(0.95)
        val api = Guard.of("api").entryType(EntryType.IN).on(engine)

        val unset: Double? = rule.maxInboundQps()
        val withQps = rule.withMaxInboundQps(5000)
        val limit = try {
            api.call { "served" }
        } catch (shed: RefusedException.SystemProtection) {
            shed.limit()
        }

        assertThat(unset).isNull()
        assertThat(withQps.maxInboundQps()).isEqualTo(5000.0)
        assertThat(limit).isEqualTo(SystemRule.Limit.CPU)
        assertThat(engine.systemStatus().source()).startsWith("fake")
    }
}
