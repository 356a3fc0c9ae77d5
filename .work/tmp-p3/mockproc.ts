import { startMockServer } from '../../mock/server.ts';
const m = await startMockServer({ port: 47222, host: '127.0.0.1' });
console.log(m.sandboxBaseUrl);
