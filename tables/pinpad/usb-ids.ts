/**
 * USB vendor (and optionally product) ids of pinpads, for discovery without sending a byte.
 * A port matching none of these is never opened unless configured by path. Sources: the usb.ids
 * registry (0B00 INGENICO, 1753 GERTEC Telecomunicacoes Ltda.); Ingenico 079B "Payment Terminals
 * Telium" and Gertec 1753:C902 "PPC 920-930" as public device inventories list them. Sites add
 * their own ids in configuration.
 */
export const KNOWN_PINPAD_USB_IDS: readonly { vendorId: number; productId?: number; name: string }[] = [
  { vendorId: 0x1753, name: 'Gertec' },
  { vendorId: 0x1753, productId: 0xc902, name: 'Gertec PPC 920/930' },
  { vendorId: 0x079b, name: 'Ingenico (Telium)' },
  { vendorId: 0x0b00, name: 'Ingenico' },
];
