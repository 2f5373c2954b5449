package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.vavr.VavrCalls
import dev.guard.api.RefusedException
import dev.guard.api.EntryType
import dev.guard.api.rule.ClusterMode
import dev.guard.api.rule.FlowRule
import dev.guard.engine.GuardEngine
import dev.guard.testkit.InMemoryTokenService
import dev.guard.spi.TokenService
import dev.guard.testkit.ArrivalSchedule
import dev.guard.testkit.traffic.GuardAssertions
import dev.guard.testkit.ManualClock
import dev.guard.testkit.traffic.TrafficSimulator
import java.time.Duration
import java.util.concurrent.CompletableFuture
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/**
 * guard as a Kotlin user writes it: trailing lambdas without explicit types, nullable results
 * where the Java API allows them, Int limits, and the test kit's manual clock.
 */
class GuardFromKotlinTest {

    private val clock = ManualClock()
    private val engine = GuardEngine.builder().clock(clock).build()

    @Test
    fun decorate_trailingLambda_readsLikeKotlin() {
        val create = Guard.of("createOrder").qps(2).on(engine).decorate { "order" }

        assertThat(create.get()).isEqualTo("order")
        assertThat(create.get()).isEqualTo("order")
        assertThatThrownBy { create.get() }.isInstanceOf(RefusedException.Flow::class.java)
        clock.advance(Duration.ofSeconds(1))
        assertThat(create.get()).isEqualTo("order")
    }

    @Test
    fun decorate_nullableResult_isAKotlinNullableType() {
        val lookup = Guard.of("lookup").on(engine).decorate<String?> { null }

        val found: String? = lookup.get()

        assertThat(found).isNull()
    }

    @Test
    fun everyDecoratorShape_takesAPlainLambda() {
        val guard = Guard.of("shapes").qps(100).warmUp(Duration.ofSeconds(10), 3).on(engine)
        var ran = 0

        guard.decorateRunnable { ran++ }.run()
        val length = guard.decorateFunction { s: String -> s.length }.apply("four")
        val called = guard.decorateCallable { "callable" }.call()
        val fallback = guard.decorateOrElse({ "value" }) { refused -> "refused by ${refused.rule()}" }.get()
        val now = guard.call { 42 }
        guard.run { ran++ }

        assertThat(listOf(ran, length, now)).containsExactly(2, 4, 42)
        assertThat(called).isEqualTo("callable")
        assertThat(fallback).isEqualTo("value")
    }

    @Test
    fun perValues_keyedShapes_takePlainLambdas() {
        data class Job(val tenant: String, val size: Int)
        val perValue = Guard.of("perTenant").perValue(0, 1).burst(1).except("vip", 5).on(engine)

        val sized = perValue.decorateKeyedFunction({ job: Job -> job.tenant }) { job -> job.size }
        val joined = Guard.of("pairs").perValue(1, 1).on(engine)
            .decorateBiFunction { query: String, tenant: String -> "$tenant:$query" }
        val keyed: String? = Guard.of("keyed").perValueConcurrency(0, 1).on(engine)
            .callWithKey("k") { null }

        assertThat(listOf(sized.apply(Job("a", 1)), sized.apply(Job("a", 2)))).containsExactly(1, 2)
        assertThatThrownBy { sized.apply(Job("a", 3)) }
            .isInstanceOf(RefusedException.PerValue::class.java)
        assertThat(joined.apply("shoes", "acme")).isEqualTo("acme:shoes")
        assertThat(keyed).isNull()
    }

    @Test
    fun vavrResults_andFallbacks_matchOnTheRefusal() {
        val closed = Guard.of("closed").qps(0).on(engine)

        val outcome = VavrCalls.tryCall(closed) { "never" }
        val either = VavrCalls.tryEither(closed) { "never" }
        val answer = closed.callOrElse({ "never" }) { refused: RefusedException -> refused.resource() }

        assertThat(outcome.isFailure).isTrue()
        assertThat(either.isLeft).isTrue()
        assertThat(answer).isEqualTo("closed")
    }

    @Test
    fun completionStage_exitsWhenTheStageCompletes() {
        val pending = CompletableFuture<String>()
        val guarded = Guard.of("async").concurrency(1).on(engine).decorateCompletionStage { pending }

        val stage = guarded.get()
        assertThat(engine.stats("async").concurrency()).isEqualTo(1)
        pending.complete("done")

        assertThat(stage.toCompletableFuture().join()).isEqualTo("done")
        assertThat(engine.stats("async").concurrency()).isZero()
    }

    @Test
    fun resourceHandle_callsWithMethodReferences() {
        val orders = engine.resource("orders").entryType(EntryType.IN)
        orders.declare(listOf(FlowRule.qps("orders", 1.0)))

        val upper: String = orders.call("a") { it.uppercase() }
        val refused = orders.callOrElse(null, "b", { it.uppercase() }) { "later" }

        assertThat(upper).isEqualTo("A")
        assertThat(refused).isEqualTo("later")
        assertThat(engine.inboundStats().passQps()).isEqualTo(1.0)
    }

    @Test
    fun lowLevelEntries_useKotlinsUse() {
        engine.resource("manual").entryType(EntryType.OUT).permits(1).enter().use { entry ->
            entry.recordError(IllegalStateException("counted"))
        }
        engine.resource("checkout").context("checkout", "mobile").openContext().use {
            Guard.of("inContext").on(engine).run { }
        }

        GuardAssertions.assertThat(engine.stats("manual")).hasNoCallsRunning()
        assertThat(engine.stats("manual").exceptionQps()).isEqualTo(1.0)
    }

    @Test
    fun trafficSimulator_playsASchedule() {
        val guard = Guard.of("simulated").qps(10).on(engine)

        val report = TrafficSimulator.of(clock).run(
            guard, ArrivalSchedule.bursts(12, Duration.ofSeconds(1)).lasting(Duration.ofSeconds(3)))

        assertThat(report.passesPerWindow(Duration.ofSeconds(1))).containsExactly(10, 10, 10)
    }

    @Test
    fun refusals_sayWhenToRetry_andTheHistoryReadsAsASeries() {
        val limited = Guard.of("limited").qps(1).on(engine)
        limited.call { "first" }

        val wait = limited.callOrElse({ Duration.ZERO }) { refused: RefusedException ->
            refused.retryAfter().orElseThrow()
        }
        clock.advance(Duration.ofSeconds(2))
        val seconds = engine.metricsHistory("limited")

        assertThat(wait).isEqualTo(Duration.ofMillis(500))
        assertThat(seconds.sumOf { it.pass() }).isEqualTo(1L)
        assertThat(seconds.sumOf { it.refused(RefusedException.Kind.FLOW) }).isEqualTo(1L)
        assertThat(engine.metricsTotals("limited").total()).isEqualTo(2L)
    }

    @Test
    fun cluster_twoEnginesShareOneLimit_andALambdaIsATokenService() {
        val service = InMemoryTokenService(clock)
        val a = GuardEngine.builder().clock(clock).tokenService(service.connect("shop")).build()
        val b = GuardEngine.builder().clock(clock).tokenService(service.connect("shop")).build()
        val onA = Guard.of("orders").qps(2).clusterWide().on(a).decorate { "a" }
        val onB = Guard.of("orders").qps(2).cluster(ClusterMode.global("orders")).on(b).decorate { "b" }

        assertThat(onA.get()).isEqualTo("a")
        assertThat(onB.get()).isEqualTo("b")
        assertThatThrownBy { onA.get() }.isInstanceOf(RefusedException.Flow::class.java)

        val refusing = GuardEngine.builder().clock(clock)
            .tokenService { _, _, _ -> TokenService.Result.REFUSED }.build()
        val refused = Guard.of("orders").qps(100).perInstance().on(refusing).decorate { "never" }
        assertThatThrownBy { refused.get() }.isInstanceOf(RefusedException.Flow::class.java)
    }

    @Test
    fun clusterConcurrency_andAnEngineClosedByUse() {
        val service = InMemoryTokenService(clock)
        GuardEngine.builder().clock(clock).tokenService(service.connect("shop")).build().use { a ->
            val export = Guard.of("export").concurrency(1).clusterWide().on(a)
            export.run {
                assertThatThrownBy { export.run { } }.isInstanceOf(RefusedException.Flow::class.java)
            }
            export.run { } // the token was given back at exit
        }
    }
}
