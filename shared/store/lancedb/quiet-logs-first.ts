// The first import of entry points whose other imports load LanceDB (bench, eval, chaos): ES
// modules are evaluated in import order, so this runs before LanceDB reads LANCEDB_LOG (see
// quietLanceDbLogs). The quarry CLI calls quietLanceDbLogs itself, before loading any command.
import { quietLanceDbLogs } from '../../lance-logs.ts';

quietLanceDbLogs();
