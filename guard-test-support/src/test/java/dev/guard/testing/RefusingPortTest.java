package dev.guard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class RefusingPortTest {

  @Test
  void connection_isRefused() throws Exception {
    try (RefusingPort closed = RefusingPort.open()) {
      assertThat(closed.port()).isPositive();
      assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), closed.port()).close())
          .isInstanceOf(ConnectException.class);
    }
  }

  @Test
  void port_cannotBeTakenByAServerWhileHeld() throws Exception {
    try (RefusingPort closed = RefusingPort.open()) {
      assertThatThrownBy(
          () -> new ServerSocket(closed.port(), 1, InetAddress.getLoopbackAddress()).close())
          .isInstanceOf(BindException.class);
    }
  }
}
