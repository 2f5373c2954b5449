package dev.guard.gateway;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The client address of a request under the trusted-proxy rule (docs/GATEWAY.md, "Client
 * address"): the connection's peer address, unless that peer is one of the configured trusted
 * proxies; then the forwarded chain ({@code Forwarded: for=...}, else {@code X-Forwarded-For}) is
 * read from the right, skipping addresses of trusted proxies, and the first address that is not
 * one is the client (the leftmost when all are). With no trusted proxy configured, forwarded
 * headers are never believed. Addresses are parsed as literals only: nothing is looked up.
 */
final class TrustedProxies {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");
  private static final Pattern PAIRS = Pattern.compile(";");
  private static final Pattern DOTS = Pattern.compile("\\.");

  /** No proxy is trusted: the client address is always the peer's. */
  static final TrustedProxies NONE = new TrustedProxies(List.of());

  private final List<Block> blocks;

  private TrustedProxies(List<Block> blocks) {
    this.blocks = blocks;
  }

  /**
   * Parses the trusted proxies: addresses ({@code 10.0.0.7}, {@code ::1}) and CIDR blocks ({@code
   * 10.0.0.0/8}, {@code fd00::/8}).
   *
   * @param property the property they come from, for messages
   * @throws IllegalArgumentException naming the property and the value that is neither
   */
  static TrustedProxies of(String property, List<String> spellings) {
    List<Block> blocks = new ArrayList<>(spellings.size());
    for (String spelling : spellings) {
      String text = spelling.trim();
      int slash = text.indexOf('/');
      InetAddress address = literal(slash < 0 ? text : text.substring(0, slash));
      int bits = address == null ? -1 : address.getAddress().length * 8;
      int prefix = bits;
      if (address != null && slash >= 0) {
        try {
          prefix = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException notANumber) {
          prefix = -1;
        }
      }
      if (address == null || prefix < 0 || prefix > bits) {
        throw new IllegalArgumentException(property
            + ": must hold IP addresses or CIDR blocks, was '" + spelling + "'");
      }
      blocks.add(new Block(address.getAddress(), prefix));
    }
    return new TrustedProxies(List.copyOf(blocks));
  }

  /** The request's client address under the rule; "" when the peer address is unknown. */
  String clientAddress(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    String peer = remote == null || remote.getAddress() == null
        ? "" : remote.getAddress().getHostAddress();
    if (blocks.isEmpty() || !trusts(peer)) {
      return peer;
    }
    List<String> chain = chain(request.getHeaders());
    for (int i = chain.size() - 1; i >= 0; i--) {
      if (!trusts(chain.get(i)) || i == 0) {
        return chain.get(i);
      }
    }
    return peer;
  }

  private boolean trusts(String address) {
    InetAddress parsed = literal(address);
    if (parsed == null) {
      return false;
    }
    byte[] bytes = parsed.getAddress();
    for (Block block : blocks) {
      if (block.contains(bytes)) {
        return true;
      }
    }
    return false;
  }

  /** The forwarded addresses, nearest hop last: {@code Forwarded}'s for=, else X-Forwarded-For. */
  private static List<String> chain(HttpHeaders headers) {
    List<String> chain = new ArrayList<>();
    List<String> forwarded = headers.getValuesAsList("Forwarded");
    if (!forwarded.isEmpty()) {
      for (String element : forwarded) {
        for (String pair : PAIRS.split(element)) {
          String p = pair.trim();
          if (p.regionMatches(true, 0, "for=", 0, 4)) {
            chain.add(node(p.substring(4)));
          }
        }
      }
      return chain;
    }
    for (String hop : headers.getValuesAsList("X-Forwarded-For")) {
      chain.add(node(hop));
    }
    return chain;
  }

  /** A node of a forwarded chain without quotes, brackets or port: {@code "[::1]:80"} is ::1. */
  private static String node(String value) {
    String node = value.trim();
    if (node.length() >= 2 && node.startsWith("\"") && node.endsWith("\"")) {
      node = node.substring(1, node.length() - 1).trim();
    }
    if (node.startsWith("[")) {
      int end = node.indexOf(']');
      return end < 0 ? node : node.substring(1, end);
    }
    int colon = node.indexOf(':');
    return colon >= 0 && colon == node.lastIndexOf(':') ? node.substring(0, colon) : node;
  }

  /** The address a literal spells, or null for anything else; never a name lookup. */
  private static @Nullable InetAddress literal(String text) {
    if (IPV4.matcher(text).matches()) {
      for (String octet : DOTS.split(text)) {
        if (Integer.parseInt(octet) > 255) {
          return null;
        }
      }
    } else if (text.indexOf(':') < 0 || !IPV6.matcher(text).matches()) {
      return null;
    }
    try {
      return InetAddress.getByName(text);
    } catch (UnknownHostException bad) {
      return null;
    }
  }

  /** A CIDR block: an address and how many leading bits of it a member shares. */
  private static final class Block {
    private final byte[] network;
    private final int prefix;

    Block(byte[] network, int prefix) {
      this.network = network.clone();
      this.prefix = prefix;
    }

    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      int whole = prefix / 8;
      for (int i = 0; i < whole; i++) {
        if (address[i] != network[i]) {
          return false;
        }
      }
      int rest = prefix % 8;
      if (rest == 0) {
        return true;
      }
      int mask = 0xff << (8 - rest) & 0xff;
      return (address[whole] & mask) == (network[whole] & mask);
    }
  }

  @Override
  public String toString() {
    return "TrustedProxies" + blocks.size();
  }
}
