package dev.guard.kotlin

import dev.guard.api.RefusedException
import dev.guard.engine.GuardEngine
import dev.guard.spring.boot.GuardAutoConfiguration
import dev.guard.spring.boot.Guarded
import dev.guard.testkit.ManualClock
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import reactor.core.publisher.Mono
import reactor.test.StepVerifier
import java.time.Duration

/** A Kotlin class's guarded methods: an open class, as Spring's class proxies need. */
open class KotlinQuotes {
    @Guarded(value = "kotlinQuote", onRefusal = "busy", onFailure = "failed")
    open fun quote(item: String): String {
        require(item != "bad") { "no such item" }
        return "quote $item"
    }

    open fun busy(item: String, refused: RefusedException.Flow): String = "busy $item"

    open fun failed(item: String, failure: IllegalArgumentException): String =
        "failed $item: ${failure.message}"

    @Guarded(value = "kotlinMono", onRefusal = "monoBusy")
    open fun quoteMono(item: String): Mono<String> = Mono.fromSupplier { "mono $item" }

    open fun monoBusy(item: String): Mono<String> = Mono.just("mono busy $item")
}

/** A final class (Kotlin's default): its guarded method cannot be proxied. */
class FinalQuotes {
    @Guarded("kotlinQuote")
    fun quote(item: String): String = item
}

/** A suspending function: its call would end at its first suspension, so it is refused. */
open class SuspendingQuotes {
    @Guarded("kotlinQuote")
    open suspend fun quote(item: String): String = item
}

@Configuration(proxyBeanMethods = false)
open class SuspendingShop {
    @Bean
    open fun quotes(): SuspendingQuotes = SuspendingQuotes()
}

@Configuration(proxyBeanMethods = false)
open class KotlinShop {
    @Bean
    open fun clock(): ManualClock = ManualClock()

    @Bean
    open fun quotes(): KotlinQuotes = KotlinQuotes()
}

@Configuration(proxyBeanMethods = false)
open class FinalShop {
    @Bean
    open fun quotes(): FinalQuotes = FinalQuotes()
}

class SpringBootFromKotlinTest {

    private val runner = ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration::class.java))
        .withPropertyValues(
            "guard.rules.flow[0].resource=kotlinQuote", "guard.rules.flow[0].qps=1",
            "guard.rules.flow[1].resource=kotlinMono", "guard.rules.flow[1].qps=1",
        )

    @Test
    fun `guarded methods of a Kotlin class are refused and fall back`() {
        runner.withUserConfiguration(KotlinShop::class.java).run { context ->
            val quotes = context.getBean(KotlinQuotes::class.java)
            assertThat(quotes.quote("a")).isEqualTo("quote a")
            assertThat(quotes.quote("b")).isEqualTo("busy b")
            context.getBean(ManualClock::class.java).advance(Duration.ofSeconds(1))
            assertThat(quotes.quote("bad")).isEqualTo("failed bad: no such item")
            assertThat(context.getBean(GuardEngine::class.java).stats("kotlinQuote").totalException())
                .isEqualTo(1)

            val mono = quotes.quoteMono("m")
            StepVerifier.create(mono).expectNext("mono m").verifyComplete()
            StepVerifier.create(mono).expectNext("mono busy m").verifyComplete()
        }
    }

    @Test
    fun `a guarded method of a final Kotlin class fails the start-up naming it`() {
        runner.withUserConfiguration(FinalShop::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure).hasStackTraceContaining(
                "@Guarded(\"kotlinQuote\") on FinalQuotes.quote(String): a guarded method must be " +
                    "neither static, private nor final",
            )
        }
    }

    @Test
    fun `a guarded suspending function fails the start-up naming it`() {
        runner.withUserConfiguration(SuspendingShop::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure).hasStackTraceContaining(
                "@Guarded(\"kotlinQuote\") on SuspendingQuotes.quote(String, Continuation): a " +
                    "suspending function cannot be guarded here",
            )
        }
    }
}
