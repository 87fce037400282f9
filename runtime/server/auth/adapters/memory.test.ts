import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { MemoryAdapter } from './memory.js';

describeAdapterContract('MemoryAdapter', async () => ({ adapter: MemoryAdapter(), close: async () => undefined }));
