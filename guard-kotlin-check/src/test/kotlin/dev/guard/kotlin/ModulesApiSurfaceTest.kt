package dev.guard.kotlin

import dev.guard.dashboard.GuardDashboard
import dev.guard.http.HttpInbound
import dev.guard.micrometer.GuardMetrics
import dev.guard.reactor.GuardedPublishers
import dev.guard.redis.RedisTokenService
import dev.guard.rules.RuleFormat
import java.lang.module.ModuleDescriptor
import java.lang.reflect.Modifier
import java.nio.file.FileSystems
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The add-on modules' public surface grows only on purpose, as the core's does (guard-testkit's
 * PublicApiSurfaceTest): every public type in an exported package of rules, redis, http,
 * micrometer, dashboard and reactor is listed in `modules-api-surface.txt`, and every listed type exists.
 */
class ModulesApiSurfaceTest {

    private val anchors = listOf(
        RuleFormat::class.java, RedisTokenService::class.java, HttpInbound::class.java,
        GuardMetrics::class.java, GuardDashboard::class.java, GuardedPublishers::class.java,
    )

    @Test
    fun publicTypesInExportedPackages_areExactlyTheReviewedList() {
        val actual = anchors.flatMap { publicTypesOf(it) }.toSortedSet()
        val reviewed = javaClass.getResourceAsStream("modules-api-surface.txt")!!.bufferedReader()
            .readLines().map { it.trim() }.filter { it.isNotEmpty() && !it.startsWith("#") }.toSortedSet()

        assertThat(actual - reviewed).`as`("public types missing from modules-api-surface.txt").isEmpty()
        assertThat(reviewed - actual).`as`("listed types that are gone or not public").isEmpty()
    }

    private fun publicTypesOf(anchor: Class<*>): List<String> {
        val location = Path.of(anchor.protectionDomain.codeSource.location.toURI())
        if (Files.isDirectory(location)) {
            return publicTypesUnder(location, anchor.classLoader)
        }
        FileSystems.newFileSystem(location).use { jar -> return publicTypesUnder(jar.getPath("/"), anchor.classLoader) }
    }

    private fun publicTypesUnder(root: Path, loader: ClassLoader): List<String> {
        val module = Files.newInputStream(root.resolve("module-info.class")).use { ModuleDescriptor.read(it) }
        return module.exports().filter { !it.isQualified }.flatMap { exports ->
            Files.list(root.resolve(exports.source().replace('.', '/'))).use { files ->
                files.map { it.fileName.toString() }
                    .filter { it.endsWith(".class") && it != "package-info.class" }
                    .map { exports.source() + "." + it.removeSuffix(".class") }
                    .filter { isPublic(Class.forName(it, false, loader)) }
                    .toList()
            }
        }
    }

    private fun isPublic(type: Class<*>): Boolean {
        var c: Class<*>? = type
        while (c != null) {
            if (!Modifier.isPublic(c.modifiers)) return false
            c = c.enclosingClass
        }
        return !type.isAnonymousClass && !type.isSynthetic
    }
}
