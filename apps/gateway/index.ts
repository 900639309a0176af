export { startGateway } from './start-gateway.ts';
