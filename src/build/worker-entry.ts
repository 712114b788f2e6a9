// The script a `buildAll` worker thread runs when the library starts it (the CLI's threads run its launcher).
import { workerMain } from './root-worker.js';

workerMain();
