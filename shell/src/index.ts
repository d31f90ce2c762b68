// Async boundary: shared singletons must be negotiated before any React code runs (stack notes).
import('./bootstrap');
