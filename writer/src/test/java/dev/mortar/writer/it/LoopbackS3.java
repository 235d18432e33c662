package dev.mortar.writer.it;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * An S3 server in this JVM (S3Proxy over jclouds' in-memory blob store) on a free loopback port,
 * with one bucket, {@value #BUCKET}. The S3A settings that reach it are in the test resource
 * core-site.xml; its endpoint there reads the port from the system property {@value
 * #PORT_PROPERTY}, which {@link #start} sets.
 */
final class LoopbackS3 implements AutoCloseable {
  static final String BUCKET = "mortar-it";
  static final String PORT_PROPERTY = "mortar.it.s3.port";
  private static final String ACCESS_KEY = "mortar-access";
  private static final String SECRET_KEY = "mortar-secret";

  private final BlobStoreContext blobs;
  private final S3Proxy server;
  private final Requests requests;

  private LoopbackS3(BlobStoreContext blobs, S3Proxy server, Requests requests) {
    this.blobs = blobs;
    this.server = server;
    this.requests = requests;
  }

  static LoopbackS3 start() throws Exception {
    BlobStoreContext blobs =
        ContextBuilder.newBuilder("transient")
            .credentials(ACCESS_KEY, SECRET_KEY)
            .build(BlobStoreContext.class);
    blobs.getBlobStore().createContainerInLocation(null, BUCKET);
    Requests requests = new Requests();
    S3Proxy server =
        S3Proxy.builder()
            .blobStore(counting(blobs.getBlobStore(), requests))
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    server.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!"STARTED".equals(server.getState())) {
      if (System.nanoTime() > deadline) {
        server.stop();
        blobs.close();
        throw new IllegalStateException("S3Proxy did not start in 10 s: " + server.getState());
      }
      Thread.sleep(10);
    }
    System.setProperty(PORT_PROPERTY, Integer.toString(server.getPort()));
    return new LoopbackS3(blobs, server, requests);
  }

  /**
   * The blob store the server serves, counting the listings of a bucket (S3's list requests), the
   * completed multipart uploads and, per kind of call, the most it served at one time.
   */
  private static BlobStore counting(BlobStore store, Requests requests) {
    InvocationHandler counting =
        (proxy, method, args) -> {
          if (method.getName().equals("list") && args != null && args.length > 0) {
            requests.lists.incrementAndGet();
          }
          if (method.getName().equals("completeMultipartUpload")) {
            requests.multipartUploads.incrementAndGet();
          }
          Concurrency calls =
              requests.byKind.computeIfAbsent(kind(method, args), k -> new Concurrency());
          calls.most.accumulateAndGet(calls.inFlight.incrementAndGet(), Math::max);
          try {
            // The round trip counts as in flight: calls that overlap in it overlap at the server.
            long roundTripMillis = requests.roundTripMillis;
            if (roundTripMillis > 0) {
              Thread.sleep(roundTripMillis);
            }
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          } finally {
            calls.inFlight.decrementAndGet();
          }
        };
    return (BlobStore)
        Proxy.newProxyInstance(
            BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class}, counting);
  }

  /**
   * A call's kind: its method's name, and for an upload whether the object is a data file (outside
   * every {@code .hoodie} folder, not a folder marker) or something else.
   */
  private static String kind(Method method, Object[] args) {
    if (method.getName().equals("putBlob") && args != null && args[1] instanceof Blob blob) {
      String name = blob.getMetadata().getName();
      return name.contains("/.hoodie/") || name.endsWith("/") ? "putBlob" : "putBlob data";
    }
    return method.getName();
  }

  /** What {@link #counting} counts. */
  private static final class Requests {
    final AtomicLong lists = new AtomicLong();
    final AtomicLong multipartUploads = new AtomicLong();
    final Map<String, Concurrency> byKind = new ConcurrentHashMap<>();
    volatile long roundTripMillis;
  }

  /** Calls of one kind in flight, and the most there were at one time. */
  private static final class Concurrency {
    final AtomicLong inFlight = new AtomicLong();
    final AtomicLong most = new AtomicLong();
  }

  /** The list requests the server has answered so far. */
  long listRequests() {
    return requests.lists.get();
  }

  /**
   * Makes every request to the blob store wait {@code millis} first, as a request to a store across
   * a network does; 0 for none.
   */
  void roundTrip(long millis) {
    requests.roundTripMillis = millis;
  }

  /** The multipart uploads the server has completed so far. */
  long multipartUploads() {
    return requests.multipartUploads.get();
  }

  /** The most single-object deletes the server has served at one time so far. */
  long mostDeletesAtOnce() {
    return mostAtOnce("removeBlob");
  }

  /**
   * The most uploads of data files (objects outside every {@code .hoodie} folder, not folder
   * markers, each in one request) the server has served at one time so far.
   */
  long mostDataUploadsAtOnce() {
    return mostAtOnce("putBlob data");
  }

  private long mostAtOnce(String kind) {
    Concurrency calls = requests.byKind.get(kind);
    return calls == null ? 0 : calls.most.get();
  }

  /** {@code s3a://mortar-it/<key>}. */
  static String uri(String key) {
    return "s3a://" + BUCKET + "/" + key;
  }

  /**
   * What a cluster's config.yaml says to let Flink's S3 file system plugin ({@code
   * flink-s3-fs-hadoop}, which reads every {@code s3.*} key as Hadoop's {@code fs.s3a.*}) reach
   * this server.
   */
  Configuration flinkS3Settings() {
    return new Configuration()
        .set(ConfigOptions.key("s3.endpoint").stringType().noDefaultValue(), endpoint())
        .set(ConfigOptions.key("s3.endpoint.region").stringType().noDefaultValue(), "us-east-1")
        .set(ConfigOptions.key("s3.path.style.access").booleanType().noDefaultValue(), true)
        .set(ConfigOptions.key("s3.access-key").stringType().noDefaultValue(), ACCESS_KEY)
        .set(ConfigOptions.key("s3.secret-key").stringType().noDefaultValue(), SECRET_KEY);
  }

  private String endpoint() {
    return "http://127.0.0.1:" + server.getPort();
  }

  /** Puts an object of {@code bytes} under {@code key}, straight into the blob store. */
  void put(String key, byte[] bytes) {
    BlobStore store = blobs.getBlobStore();
    store.putBlob(BUCKET, store.blobBuilder(key).payload(bytes).build());
  }

  /** The names of the objects below {@code prefix}, read from the blob store behind the server. */
  List<String> objectsBelow(String prefix) {
    BlobStore store = blobs.getBlobStore();
    return store.list(BUCKET, ListContainerOptions.Builder.prefix(prefix).recursive()).stream()
        .map(StorageMetadata::getName)
        .toList();
  }

  @Override
  public void close() throws Exception {
    System.clearProperty(PORT_PROPERTY);
    try {
      server.stop();
    } finally {
      blobs.close();
    }
  }
}
