// ES module face of transport.cjs.
export { Connection, RPCError } from './transport.cjs';
