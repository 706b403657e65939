export {
  TransportError,
  isTransportError,
  type Transport,
  type PortInfo,
  type TransportErrorCode,
} from './transport.js';
export { SerialTransport, type SerialOptions } from './serial.js';
export { TcpTransport, type TcpOptions } from './tcp.js';
export { HidTransport, listHidDevices, type HidOptions } from './hid.js';
export {
  discoverPinpadPorts,
  knownPinpad,
  listSerialPorts,
  UDEV_SERIAL_DIRS,
  type DiscoveryOptions,
  type UsbId,
} from './discovery.js';
