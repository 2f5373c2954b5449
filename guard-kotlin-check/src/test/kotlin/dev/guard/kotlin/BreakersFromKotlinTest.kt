package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.api.CircuitBreaker
import dev.guard.api.RefusedException
import dev.guard.api.rule.CircuitBreakerRule
import dev.guard.spi.EngineListener
import dev.guard.engine.GuardEngine
import dev.guard.testkit.ManualClock
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/** Circuit breakers from Kotlin: the spec lambda, recovery as a trailing lambda, nullable fields. */
class BreakersFromKotlinTest {

    private val clock = ManualClock()
    private val changes = mutableListOf<CircuitBreaker.Transition>()
    private val engine = GuardEngine.builder().clock(clock).listener(object : EngineListener {
        override fun onBreakerStateChanged(transition: CircuitBreaker.Transition) {
            changes += transition
        }
    }).build()

    @Test
    fun breakerStage_settings_andRecoveryAsTrailingLambda() {
        val inventory = Guard.of("inventory")
            .qps(200)
            .errorRatio(0.5).minCalls(1).openFor(Duration.ofSeconds(5))
            .ignoreExceptions(IllegalArgumentException::class.java)
            .on(engine)
        val stock = inventory.decorateOrRecover({ error("down") }) { failure ->
            "cached after ${failure.javaClass.simpleName}"
        }

        assertThat(stock.get()).isEqualTo("cached after IllegalStateException")
        assertThat(stock.get()).isEqualTo("cached after Breaker")
        assertThat(engine.breakers("inventory").single().state()).isEqualTo(CircuitBreaker.State.OPEN)
        assertThat(changes.map { it.to() }).containsExactly(CircuitBreaker.State.OPEN)
    }

    @Test
    fun refusal_tellsWhenToRetry_andRulesHaveNullableFields() {
        val mailer = Guard.of("mailer").errorCount(0).openFor(Duration.ofSeconds(30)).on(engine)
        repeat(5) { mailer.tryCall { error("smtp down") } } // the default minimum is 5 calls
        val rule: CircuitBreakerRule = engine.breakers("mailer").single().rule()
        val slowerThan: Duration? = rule.slowerThan()
        val probeTimeout: Duration? = rule.probeTimeout()

        assertThat(slowerThan).isNull()
        assertThat(probeTimeout).isNull()
        assertThat(rule.effectiveProbeTimeout()).isEqualTo(Duration.ofSeconds(30))
        assertThatThrownBy { Guard.of("mailer").on(engine).run { } }
            .isInstanceOfSatisfying(RefusedException.Breaker::class.java) { refused ->
                assertThat(refused.retryAfter()).contains(Duration.ofSeconds(30))
            }
    }
}
