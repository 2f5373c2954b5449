package dev.guard.rules.internal;

import dev.guard.api.rule.InvalidRulesException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;

/**
 * Says in the rule format's own words why Jackson could not read a document: which limit it
 * exceeds or which text is not JSON, where (line and column), and at which JSON path where the
 * parser knew one. Jackson's own messages name its features and settings, which mean nothing to
 * someone writing rules, so none of them is ever quoted.
 */
public final class JsonErrors {

  /**
   * A kind of Jackson message and how the format says it, with the pattern's groups; {@code
   * aboutName} when the problem is a field name, so the path is the object's, not the previous
   * field's.
   */
  private record Wording(Pattern pattern, String message, boolean aboutName) {
    String say(Matcher match) {
      Object[] groups = new Object[match.groupCount()];
      for (int i = 0; i < groups.length; i++) {
        groups[i] = match.group(i + 1);
      }
      return String.format(message, groups);
    }
  }

  private static final String INVALID = "is not valid JSON: ";

  private static final String LIMIT = "\\((\\d+)\\) exceeds the maximum allowed \\((\\d+)";

  private static final List<Wording> WORDINGS = List.of(
      wording("^Document nesting depth " + LIMIT,
          "must nest arrays and objects at most %2$s deep, was %1$s deep"),
      wording("^String value length " + LIMIT,
          "a string must be at most %2$s characters long, was %1$s"),
      new Wording(Pattern.compile("^Name length " + LIMIT),
          "a field name must be at most %2$s characters long, was %1$s", true),
      wording("^Number value length " + LIMIT,
          "a number must be at most %2$s characters long, was %1$s"),
      wording("^Duplicate Object property \"(.*)\"",
          "must not repeat the field \"%s\" in one object"),
      wording("^Non-standard token '(-?\\w+)'", "must be a finite number, was %s"),
      syntax("comment", "comments are not JSON"),
      new Wording(Pattern.compile(
          "^Unexpected character \\('(.)' \\(code \\d+\\)\\): was expecting double-quote"),
          INVALID + "field names must be in double quotes, found '%s'", true),
      syntax("plus sign", "a number must not start with '+'"),
      syntax("^Invalid numeric value: Leading zeroes", "a number must not start with 0"),
      syntax("^Unexpected character \\('(.)' \\(code \\d+\\)\\)", "unexpected character '%s'"),
      syntax("^Unrecognized token '([^']*)'", "unexpected text '%s'"),
      syntax("^Unexpected end-of-input", "the document ends inside a value"),
      syntax("^Trailing token", "there is more after the document's object"),
      syntax("^Illegal unquoted character", "a control character in a string must be escaped"),
      syntax("^Unrecognized character escape", "a string has an unknown escape sequence"),
      syntax("^Invalid numeric value", "a number is malformed"));

  private JsonErrors() {}

  private static Wording wording(String regex, String message) {
    return new Wording(Pattern.compile(regex), message, false);
  }

  private static Wording syntax(String regex, String message) {
    return wording(regex, INVALID + message);
  }

  /**
   * Describes a failure to read a document.
   *
   * @param unreadable what Jackson threw
   * @param parser the parser that was reading, for the position and path; null if none
   * @param root the path of the document's object
   * @return the error, at the path where the parser was
   */
  public static InvalidRulesException.Error describe(JacksonException unreadable, @Nullable JsonParser parser,
      String root) {
    String original = String.valueOf(unreadable.getOriginalMessage());
    String message = "is not valid JSON";
    boolean aboutName = false;
    for (Wording wording : WORDINGS) {
      Matcher match = wording.pattern().matcher(original);
      if (match.find()) {
        message = wording.say(match);
        aboutName = wording.aboutName();
        break;
      }
    }
    TokenStreamContext context = parser == null ? null : parser.streamReadContext();
    String path = aboutName && context != null && context.inObject()
        ? path(context.getParent(), root) // the object's own path, not its last field's
        : path(context, root);
    TokenStreamLocation location =
        parser != null ? parser.currentLocation() : unreadable.getLocation();
    return new InvalidRulesException.Error(path, message + where(location));
  }

  private static String path(@Nullable TokenStreamContext context, String root) {
    if (context == null || context.inRoot()) {
      return root;
    }
    String parent = path(context.getParent(), root);
    if (context.inArray()) {
      int index = context.getCurrentIndex();
      return index < 0 ? parent : parent + "[" + index + "]";
    }
    String name = context.currentName();
    return name == null ? parent : parent + "." + name;
  }

  private static String where(@Nullable TokenStreamLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }
}
