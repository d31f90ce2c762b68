import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Local MongoDB wire-protocol server for dev and tests on machines without a MongoDB package.
 * The library's own InMemoryMongoServer is fixed to localhost:27017; this main takes host and port.
 * Runs until stdin closes or the process is signalled, so a parent that dies takes it along.
 */
public class MongoStandIn {
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 27017;
        MemoryBackend backend = new MemoryBackend();
        if (args.length > 2 && args[2].equals("--oplog")) backend.enableOplog();
        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        System.out.println("mongo-java-server listening on " + host + ":" + port);
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Thread.currentThread().join();
    }
}
