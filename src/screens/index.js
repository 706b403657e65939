// The index keeps the token (from #token=) in the session, so the links open the screens with it.
import { token } from './api.js';

token();
