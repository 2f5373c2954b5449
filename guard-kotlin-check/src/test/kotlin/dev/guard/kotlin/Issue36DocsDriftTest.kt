package dev.guard.kotlin

import dev.guard.Guard
import dev.guard.api.EntryType
import dev.guard.api.RefusedException
import dev.guard.api.rule.AdaptiveConcurrencyRule
import dev.guard.api.rule.CircuitBreakerRule
import dev.guard.api.rule.FlowRule
import dev.guard.api.rule.OriginRule
import dev.guard.api.rule.PerValueRule
import dev.guard.api.rule.Rule
import dev.guard.api.rule.RuleSet
import dev.guard.api.rule.SystemRule
import dev.guard.dashboard.GuardDashboard
import dev.guard.gateway.GuardGatewayFilterFactory
import dev.guard.engine.GuardEngine
import dev.guard.grpc.GuardServerInterceptor
import dev.guard.http.HttpInbound
import dev.guard.micrometer.GuardMetrics
import dev.guard.reactor.GuardedPublishers
import dev.guard.redis.RedisTokenService
import dev.guard.rules.RuleFormat
import dev.guard.vavr.VavrCalls
import dev.guard.spring.client.GuardClientInterceptor
import dev.guard.testkit.ManualClock
import dev.guard.testkit.traffic.TrafficSimulator
import java.lang.reflect.Modifier
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The lists in the docs that can drift from the code are checked against the code: docs/API.md
 * names every public type of every exported package (nested ones included), every doc that lists
 * the refusal kinds lists all of them (from `RefusedException.Kind`), and docs/RULES.md's lists
 * of rule kinds name every kind `RuleFormat.write` emits.
 *
 * A "list" is a run of at least three names separated only by commas, "and", "or", spaces and
 * back-ticks (`flow`, `per-value`, ... or "flow, per-value, circuit breaker, ..."); the paragraph,
 * list item (with its nested items) or table row holding it must name every kind. Code blocks are
 * not read.
 */
class Issue36DocsDriftTest {

    private val docs: Path = Path.of("..", "docs")
    private val anchors = listOf(
        EntryType::class.java, GuardEngine::class.java, Guard::class.java, ManualClock::class.java,
        TrafficSimulator::class.java, RuleFormat::class.java, RedisTokenService::class.java,
        HttpInbound::class.java, GuardMetrics::class.java, GuardDashboard::class.java,
        GuardedPublishers::class.java,
        VavrCalls::class.java,
        GuardServerInterceptor::class.java,
        GuardClientInterceptor::class.java,
        GuardGatewayFilterFactory::class.java,
    )

    @Test
    fun apiMd_namesEveryPublicTypeOfEveryExportedPackage() {
        val api = Files.readString(docs.resolve("API.md"))
        val types = anchors.flatMap { PublicTypes.of(it) }.toSortedSet()
        val missing = types.map { it.substringAfterLast('.').replace('$', '.') }
            .filter { !Regex("(?<![\\w.])" + Regex.escape(it) + "(?!\\w|\\.\\w)").containsMatchIn(api) }

        println("Issue36DocsDriftTest: ${types.size} public types checked against docs/API.md")
        assertThat(types).hasSizeGreaterThan(100)
        assertThat(missing).`as`("public types docs/API.md does not name (as Outer.Nested)").isEmpty()
    }

    @Test
    fun everyListOfRefusalKinds_namesEveryKind() {
        val kinds = RefusedException.Kind.values().map { it.tag() }
        val forms = kinds.associateWith { listOf(it, it.replace('-', ' ')).distinct() }
        val files = Files.list(docs).use { s -> s.filter { it.toString().endsWith(".md") }.sorted().toList() } +
            listOf(Path.of("..", "README.md"))

        val lists = files.flatMap { listsIn(it, forms, ignoreCase = true) }
        val incomplete = lists.filter { !it.namesAll }.map { it.where }

        println("Issue36DocsDriftTest: ${kinds.size} refusal kinds, ${files.size} docs read, "
            + "${lists.size} lists in ${lists.map { it.file }.distinct().size} docs checked")
        assertThat(lists.map { it.file }.distinct())
            .contains("HTTP.md", "SPRING-BOOT.md", "DASHBOARD.md", "OBSERVABILITY.md")
        assertThat(incomplete).`as`("lists of refusal kinds that leave some out of $kinds").isEmpty()
    }

    @Test
    fun rulesMd_namesEveryKindWriteEmits() {
        val written = writtenKinds()
        val forms = written.associateWith { listOf(it) }

        val lists = listsIn(docs.resolve("RULES.md"), forms, ignoreCase = false)
        val incomplete = lists.filter { !it.namesAll }.map { it.where }

        println("Issue36DocsDriftTest: ${written.size} rule kinds written, ${lists.size} lists in docs/RULES.md checked")
        assertThat(lists).hasSizeGreaterThanOrEqualTo(2)
        assertThat(incomplete).`as`("lists of rule kinds in docs/RULES.md that leave some out of $written").isEmpty()
    }

    /** The top-level fields `RuleFormat.write` emits for a set with a rule of every kind. */
    private fun writtenKinds(): List<String> {
        val everyKind = listOf(
            FlowRule.qps("a", 1.0), PerValueRule.qps("a", 0, 1), CircuitBreakerRule.errorCount("a", 1),
            OriginRule.allow("a", "b"), SystemRule.of().withMaxConcurrency(1), AdaptiveConcurrencyRule.of("a"),
        )
        val ruleTypes = PublicTypes.of(EntryType::class.java).map { Class.forName(it) }
            .filter { Rule::class.java.isAssignableFrom(it) && !it.isInterface && !Modifier.isAbstract(it.modifiers) }
            .map { it.name }
        assertThat(everyKind.map { it.javaClass.name }).`as`("a rule of every kind").containsExactlyInAnyOrderElementsOf(ruleTypes)

        val document = RuleFormat.write(RuleSet.of(everyKind))
        return Regex("(?m)^  \"(\\w+)\":").findAll(document).map { it.groupValues[1] }
            .filter { it != "version" }.toList()
    }

    private class Found(val file: String, val where: String, val namesAll: Boolean)

    /** Every list of at least three of the names in [forms] in one doc, outside code blocks. */
    private fun listsIn(file: Path, forms: Map<String, List<String>>, ignoreCase: Boolean): List<Found> {
        val options = if (ignoreCase) setOf(RegexOption.IGNORE_CASE) else emptySet()
        val byForm = forms.flatMap { (name, fs) -> fs.map { it to name } }.sortedByDescending { it.first.length }
        val any = Regex(byForm.joinToString("|", "(?<![\\w-])(", ")(?![\\w-])") { Regex.escape(it.first) }, options)
        val separator = Regex("[\\s`,]*(?:\\b(?:and|or)\\b)?[\\s`,]*")
        val name = { form: String -> byForm.first { it.first.equals(form, ignoreCase) }.second }

        return blocks(file).flatMap { (line, text) ->
            val runs = mutableListOf<MutableList<MatchResult>>()
            for (match in any.findAll(text)) {
                val last = runs.lastOrNull()?.last()
                if (last != null && separator.matches(text.substring(last.range.last + 1, match.range.first))) {
                    runs.last().add(match)
                } else {
                    runs.add(mutableListOf(match))
                }
            }
            val named = any.findAll(text).map { name(it.value) }.toSet()
            runs.filter { run -> run.map { name(it.value) }.distinct().size >= 3 }.map { run ->
                Found(file.fileName.toString(),
                    "${file.fileName}:${line + text.substring(0, run.first().range.first).count { it == '\n' }}: ${run.joinToString(", ") { it.value }} (missing ${forms.keys - named})",
                    named.containsAll(forms.keys))
            }
        }
    }

    /**
     * The paragraphs, list items (with what is indented under them) and table rows of a markdown
     * file, outside fenced code blocks, each with its first line's number.
     */
    private fun blocks(file: Path): List<Pair<Int, String>> {
        val blocks = mutableListOf<Pair<Int, String>>()
        var start = 0
        val current = StringBuilder()
        var fenced = false
        fun end() {
            if (current.isNotBlank()) blocks.add(start to current.toString())
            current.setLength(0)
        }
        Files.readAllLines(file).forEachIndexed { i, line ->
            when {
                line.trimStart().startsWith("```") -> { end(); fenced = !fenced }
                fenced -> {}
                line.isBlank() -> end()
                line.startsWith("|") || line.startsWith("#") || Regex("^(?:[-*]|\\d+\\.) ").containsMatchIn(line) -> {
                    end(); start = i + 1; current.append(line).append('\n')
                    if (line.startsWith("|") || line.startsWith("#")) end()
                }
                else -> { if (current.isEmpty()) start = i + 1; current.append(line).append('\n') }
            }
        }
        end()
        return blocks
    }
}
