export { handle } from './auth';
