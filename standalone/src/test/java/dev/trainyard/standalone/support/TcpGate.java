package dev.trainyard.standalone.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * A TCP proxy on loopback in front of a server, for outages that end: {@link #close()} cuts every
 * connection and turns new ones away (as a stopped server would), {@link #open()} lets them through
 * again to the same server, its data intact. Given a choice of servers ({@link
 * #TcpGate(IntSupplier)}), each new connection goes to the port the choice names then, as a
 * Kubernetes Service sends it to one of the ready pods behind it.
 */
public class TcpGate implements AutoCloseable {
  private final ServerSocket listener;
  private final IntSupplier target;
  private final Set<Socket> live = ConcurrentHashMap.newKeySet();
  private volatile boolean open = true;
  private volatile boolean running = true;

  public TcpGate(int target) throws IOException {
    this(() -> target);
  }

  /** In front of the server {@code target} names for each new connection. */
  public TcpGate(IntSupplier target) throws IOException {
    this.target = target;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "tcp-gate-" + listener.getLocalPort());
    accept.setDaemon(true);
    accept.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Cuts every connection and refuses new ones until {@link #open()}. */
  public void shut() {
    open = false;
    live.forEach(TcpGate::quietly);
    live.clear();
  }

  public void open() {
    open = true;
  }

  private void accept() {
    while (running) {
      try {
        Socket client = listener.accept();
        if (!open) {
          quietly(client);
          continue;
        }
        Socket server;
        try {
          server = new Socket(InetAddress.getLoopbackAddress(), target.getAsInt());
        } catch (IOException e) {
          quietly(client); // the chosen server refused: the client sees its connection end
          continue;
        }
        live.add(client);
        live.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        // listener closed, or the server refused: the client sees its connection end
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed
              } finally {
                quietly(from);
                quietly(to);
                live.remove(from);
                live.remove(to);
              }
            },
            "tcp-gate-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static void quietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    running = false;
    shut();
    quietly(listener);
  }

  private static void quietly(ServerSocket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
