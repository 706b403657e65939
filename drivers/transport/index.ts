export { TransportError, isTransportError, type Transport, type PortInfo } from './transport.js';
export { SerialTransport } from './serial.js';
export { TcpTransport } from './tcp.js';
export { listUsbDevices } from './usb-devices.js';
export { discoverPinpadPorts, knownPinpad, listSerialPorts } from './discovery.js';
