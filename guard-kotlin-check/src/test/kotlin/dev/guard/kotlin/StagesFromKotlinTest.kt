package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.QpsGuard
import dev.guard.api.CircuitBreaker
import dev.guard.api.RefusedException
import dev.guard.api.rule.ClusterMode
import dev.guard.engine.GuardEngine
import dev.guard.testkit.ManualClock
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/**
 * The builder's stages from Kotlin: every valid order compiles as ordinary Kotlin code, a stage
 * is a guard (a template typed as `Guard` or as its stage), and results and recorded failures
 * reach circuit breakers through trailing lambdas.
 */
class StagesFromKotlinTest {

    private val clock = ManualClock()
    private val engine = GuardEngine.builder().clock(clock).build()

    @Test
    fun validOrders_compileAndDeclareTheirRules() {
        val guards: List<Guard> = listOf(
            Guard.of("a").qps(5).warmUp(Duration.ofSeconds(1)).pacing(Duration.ZERO),
            Guard.of("b").qps(5.5).fromOrigin("mobile").relatedTo("other").clusterWide(),
            Guard.of("c").concurrency(4).fromEntrance("nightly").cluster(ClusterMode.global("c")),
            Guard.of("d").perValue(0, 5).burst(1).period(Duration.ofSeconds(2)).except("v", 2)
                .valueType(String::class.java).maxValues(10),
            Guard.of("e").perValueConcurrency(1, 2).except("v", 3).maxValues(10),
            Guard.of("f").slowCallRatio(0.5, Duration.ofMillis(300)).minCalls(10)
                .window(Duration.ofSeconds(10), 5).openFor(Duration.ofSeconds(5)).probes(2)
                .probeTimeout(Duration.ofSeconds(1)),
            Guard.of("g").qps(5).errorRatio(0.5).openFor(Duration.ofSeconds(1)).qps(7).perInstance(),
        )

        assertThat(guards.map { it.rules().size }).containsExactly(1, 1, 1, 1, 1, 1, 3)
    }

    @Test
    fun sharedSteps_inferTheStageTheyWereCalledOn() {
        val qps: QpsGuard = Guard.of("a").qps(5).fromOrigin("mobile").perInstance()
        val shaped = Guard.of("b").qps(5).pacing(Duration.ZERO).fromEntrance("nightly")
            .warmUp(Duration.ofSeconds(1))
        val quota = Guard.of("c").qps(5).quota(10, Duration.ofMinutes(1)).clusterWide()
            .quota(100, Duration.ofHours(1))
        val perValue = Guard.of("d").perValue(0, 5).maxValues(10).burst(1)
        val paced = Guard.of("e").perValue(0, 5).pacing(Duration.ZERO).except("v", 2)
            .period(Duration.ofSeconds(2))

        assertThat(listOf(qps, shaped, quota, perValue, paced).map { it.rules().size })
            .containsExactly(1, 1, 1, 1, 1)
    }

    @Test
    fun stage_asATemplate_givesIndependentVariants() {
        val template: QpsGuard = Guard.of("r").qps(10)
        val warm = template.warmUp(Duration.ofSeconds(5))
        val paced = template.pacing(Duration.ZERO)

        assertThat(template.flowRules().single().warmUp()).isNull()
        assertThat(warm).isNotEqualTo(paced).isNotEqualTo(template)
        assertThat(template.warmUp(Duration.ofSeconds(5))).isEqualTo(warm)
    }

    @Test
    fun failsWhen_trailingLambda_opensTheBreakerOnNullResults() {
        val lookup = Guard.of("lookup").errorCount(0).minCalls(1).failsWhen { it == null }
            .on(engine).decorate<String?> { null }

        assertThat(lookup.get()).isNull()
        assertThat(engine.breakers("lookup").single().state()).isEqualTo(CircuitBreaker.State.OPEN)
        assertThatThrownBy { lookup.get() }.isInstanceOf(RefusedException.Breaker::class.java)
    }

    @Test
    fun decorateWithCall_recordsAFailureWithoutThrowing() {
        val quote = Guard.of("pricing").errorCount(0).minCalls(1).on(engine)
            .decorateWithCall { call ->
                call.recordFailure(IllegalStateException("timed out"))
                "unavailable"
            }

        assertThat(quote.get()).isEqualTo("unavailable")
        assertThat(engine.breakers("pricing").single().state()).isEqualTo(CircuitBreaker.State.OPEN)
    }
}
