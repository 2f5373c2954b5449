package dev.guard.testkit.traffic;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws docs/adaptive-limit.png: the limit over time of guard's gradient limit and of
 * concurrency-limits' Gradient2 in the scenario of {@link AdaptiveSimulationTest}, with the
 * dependency's capacity. bench/pictures.sh runs it (with the other pictures of docs/), through
 * this module's {@code exec:exec@pictures}:
 *
 * <pre>{@code
 * bench/pictures.sh
 * }</pre>
 */
public final class AdaptiveChart {

  private static final int WIDTH = 900;
  private static final int HEIGHT = 360;
  private static final int LEFT = 60;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;
  private static final int MAX_LIMIT = 150;

  private AdaptiveChart() {}

  /**
   * Writes the chart.
   *
   * @param args the directory to write {@code adaptive-limit.png} into (default {@code docs})
   * @throws IOException if the file cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "docs");
    Files.createDirectories(dir);
    List<SimulatedDependency.Sample> guard =
        AdaptiveSimulationTest.runGuard(AdaptiveConcurrencyRule.of("inventory")).samples();
    List<SimulatedDependency.Sample> netflix = ConcurrencyLimitsComparisonTest.gradient2().samples();

    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);
    axes(g);
    series(g, guard, s -> s.capacity(), new Color(120, 120, 120), 1.5f, true);
    series(g, netflix, SimulatedDependency.Sample::limit, new Color(230, 140, 40), 1.2f, false);
    series(g, guard, SimulatedDependency.Sample::limit, new Color(30, 90, 200), 2.5f, false);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.setColor(Color.BLACK);
    g.drawString("Concurrency limit over time: capacity 50, then 25 at 20 s; load 4000/s, then"
        + " 800/s at 40 s", LEFT, 22);
    legend(g, 0, new Color(30, 90, 200), "guard adaptiveConcurrency() (gradient)");
    legend(g, 1, new Color(230, 140, 40), "concurrency-limits Gradient2 (defaults)");
    legend(g, 2, new Color(120, 120, 120), "dependency capacity");
    g.dispose();
    ImageIO.write(image, "png", dir.resolve("adaptive-limit.png").toFile());
  }

  private interface Value {
    int of(SimulatedDependency.Sample sample);
  }

  private static int x(long atMs) {
    return LEFT + (int) (atMs * (WIDTH - LEFT - RIGHT) / 60_000L);
  }

  private static int y(int limit) {
    int clipped = Math.min(limit, MAX_LIMIT);
    return HEIGHT - BOTTOM - clipped * (HEIGHT - TOP - BOTTOM) / MAX_LIMIT;
  }

  private static void axes(Graphics2D g) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (int limit = 0; limit <= MAX_LIMIT; limit += 25) {
      g.setColor(new Color(225, 225, 225));
      g.drawLine(LEFT, y(limit), WIDTH - RIGHT, y(limit));
      g.setColor(Color.DARK_GRAY);
      g.drawString(String.valueOf(limit), LEFT - 30, y(limit) + 4);
    }
    for (int second = 0; second <= 60; second += 10) {
      g.setColor(Color.DARK_GRAY);
      g.drawString(second + " s", x(second * 1000L) - 8, HEIGHT - BOTTOM + 16);
    }
    g.drawString("limit (calls in flight; clipped at " + MAX_LIMIT + ")", LEFT, TOP - 4);
    g.drawLine(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM);
    g.drawLine(LEFT, TOP, LEFT, HEIGHT - BOTTOM);
  }

  private static void series(Graphics2D g, List<SimulatedDependency.Sample> samples, Value value,
      Color color, float width, boolean dashed) {
    g.setColor(color);
    g.setStroke(dashed
        ? new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f)
        : new BasicStroke(width));
    for (int i = 1; i < samples.size(); i++) {
      SimulatedDependency.Sample a = samples.get(i - 1);
      SimulatedDependency.Sample b = samples.get(i);
      g.drawLine(x(a.atMs()), y(value.of(a)), x(b.atMs()), y(value.of(b)));
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static void legend(Graphics2D g, int row, Color color, String text) {
    int top = HEIGHT - 22 + row * 0;
    int left = LEFT + row * 280;
    g.setColor(color);
    g.fillRect(left, top - 8, 18, 4);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawString(text, left + 24, top - 3);
  }
}
