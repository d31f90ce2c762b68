import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.util.Arrays;
import java.util.List;

/**
 * Local MongoDB wire-protocol server for dev and tests on machines without a MongoDB package.
 * The library's own InMemoryMongoServer is fixed to localhost:27017; this main takes host and port.
 *
 * Usage: MongoStandIn [host] [port] [--oplog] [--exit-on-stdin-close]
 * --exit-on-stdin-close: infra/scripts/deps.mjs gives the server a pipe as stdin and never writes to it,
 * so when the parent dies, even by SIGKILL, the pipe closes and the server goes too instead of
 * holding its port and memory. Opt-in, because a server started by hand with stdin on /dev/null
 * would otherwise stop at once.
 */
public class MongoStandIn {
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 27017;
        List<String> flags = args.length > 2 ? Arrays.asList(args).subList(2, args.length) : List.of();
        MemoryBackend backend = new MemoryBackend();
        if (flags.contains("--oplog")) backend.enableOplog();
        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        System.out.println("mongo-java-server listening on " + host + ":" + port);
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        if (flags.contains("--exit-on-stdin-close")) {
            while (System.in.read() != -1) {
                // Input is ignored; only end-of-stream matters.
            }
            System.exit(0);
        }
        Thread.currentThread().join();
    }
}
