package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.api.RefusedException
import dev.guard.engine.GuardEngine
import dev.guard.reactor.GuardedPublishers
import dev.guard.testkit.ManualClock
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import reactor.core.publisher.Flux
import reactor.core.publisher.Mono
import reactor.test.StepVerifier
import reactor.util.context.Context

/** Guarded Reactor publishers as a Kotlin user writes them. */
class ReactorFromKotlinTest {

    private val engine = GuardEngine.builder().clock(ManualClock()).build()

    @Test
    fun transform_methodReference_guardsMonoAndFlux() {
        val guarded = GuardedPublishers.of(Guard.of("quote").concurrency(1).on(engine))

        StepVerifier.create(Mono.just("ok").transform(guarded::mono)).expectNext("ok").verifyComplete()
        StepVerifier.create(Flux.just(1, 2).transform(guarded::flux)).expectNext(1, 2).verifyComplete()
        assertThat(engine.stats("quote").totalPass()).isEqualTo(2)
    }

    @Test
    fun monoOrElse_trailingLambda_servesTheFallback() {
        val guarded = GuardedPublishers.of(Guard.of("stock").qps(0).on(engine))

        val stock: Mono<String> = guarded.monoOrElse(Mono.just("live")) { refused ->
            Mono.just(refused.javaClass.simpleName)
        }

        StepVerifier.create(stock).expectNext("Flow").verifyComplete()
        StepVerifier.create(guarded.mono(Mono.just(1))).expectError(RefusedException.Flow::class.java).verify()
    }

    @Test
    fun contextKey_kotlinContext_limitsPerValue() {
        val perTenant = GuardedPublishers.of(Guard.of("search").perValue(0, 1).on(engine)).contextKey("tenant")
        val search = perTenant.mono(Mono.just("page")).contextWrite(Context.of("tenant", "a"))

        StepVerifier.create(search).expectNext("page").verifyComplete()
        StepVerifier.create(search).expectError(RefusedException.PerValue::class.java).verify()
    }
}
