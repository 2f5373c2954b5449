package dev.guard.kotlin

import java.lang.module.ModuleDescriptor
import java.lang.reflect.Modifier
import java.nio.file.FileSystems
import java.nio.file.Files
import java.nio.file.Path

/**
 * The public types (nested ones included, as binary names such as `a.B$C`) of the packages a
 * module exports to everyone, read from the module's own `module-info.class`; the module is the
 * one that holds [anchor].
 */
internal object PublicTypes {

    fun of(anchor: Class<*>): List<String> {
        val location = Path.of(anchor.protectionDomain.codeSource.location.toURI())
        if (Files.isDirectory(location)) {
            return under(location, anchor.classLoader)
        }
        FileSystems.newFileSystem(location).use { jar -> return under(jar.getPath("/"), anchor.classLoader) }
    }

    private fun under(root: Path, loader: ClassLoader): List<String> {
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
