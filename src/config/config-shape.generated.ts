// Generated from src/config/schema.ts by src/config/shape-of.ts: do not edit. After changing the schema:
//   npm run generate
// (test/unit/lint/generated.test.ts compares this file with the schema and fails until it is regenerated).
import type { Shape } from './shape.js';

export const CONFIG_SHAPE: Shape = {
  type: 'object',
  strict: true,
  shape: {
    $schema: { type: 'optional', inner: { type: 'string', checks: [] } },
    environment: {
      type: 'default',
      inner: { type: 'enum', values: ['sandbox', 'homologation', 'production'] },
      value: 'sandbox',
    },
    stateDir: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
    terminal: {
      type: 'object',
      strict: true,
      shape: {
        subordinatedMerchantId: {
          type: 'string',
          checks: [
            {
              kind: 'regex',
              source:
                '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
              flags: '',
            },
          ],
        },
        terminalId: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9A-Za-z]{8}$', flags: '' }] },
        ordinal: {
          type: 'number',
          checks: [
            { kind: 'safeint' },
            { kind: 'greater_than', value: 1, inclusive: true },
            { kind: 'less_than', value: 999, inclusive: true },
          ],
        },
        orderIdTerminal: {
          type: 'optional',
          inner: {
            type: 'number',
            checks: [
              { kind: 'safeint' },
              { kind: 'greater_than', value: 1, inclusive: true },
              { kind: 'less_than', value: 9999, inclusive: true },
            ],
          },
        },
        softDescriptor: {
          type: 'optional',
          inner: {
            type: 'string',
            checks: [
              { kind: 'regex', source: '^[A-Za-z0-9 ]{1,13}$', flags: '' },
              { kind: 'custom', name: 'notBlank' },
            ],
          },
        },
        mode: { type: 'default', inner: { type: 'enum', values: ['attended', 'unattended'] }, value: 'attended' },
        paymentFacilitator: {
          type: 'optional',
          inner: {
            type: 'object',
            strict: true,
            shape: {
              establishmentCode: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{1,10}$', flags: '' }] },
              terminalAcquirerId: {
                type: 'string',
                checks: [
                  { kind: 'min_length', value: 1 },
                  { kind: 'max_length', value: 8 },
                ],
              },
              subEstablishment: {
                type: 'object',
                strict: true,
                shape: {
                  establishmentCode: {
                    type: 'string',
                    checks: [
                      { kind: 'min_length', value: 1 },
                      { kind: 'max_length', value: 15 },
                    ],
                  },
                  mcc: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{4}$', flags: '' }] },
                  address: {
                    type: 'string',
                    checks: [
                      { kind: 'min_length', value: 1 },
                      { kind: 'max_length', value: 50 },
                    ],
                  },
                  city: {
                    type: 'string',
                    checks: [
                      { kind: 'min_length', value: 1 },
                      { kind: 'max_length', value: 50 },
                    ],
                  },
                  state: { type: 'string', checks: [{ kind: 'regex', source: '^[A-Z]{2}$', flags: '' }] },
                  postalCode: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{8,9}$', flags: '' }] },
                  phoneNumber: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{1,13}$', flags: '' }] },
                  countryCode: {
                    type: 'default',
                    inner: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{3}$', flags: '' }] },
                    value: '076',
                  },
                  documentType: { type: 'enum', values: ['Cpf', 'Cnpj'] },
                  documentNumber: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{11,14}$', flags: '' }] },
                },
              },
            },
          },
        },
      },
    },
    acquirer: {
      type: 'union',
      options: [
        {
          type: 'object',
          strict: true,
          shape: {
            kind: { type: 'literal', values: ['omni'] },
            omni: {
              type: 'object',
              strict: true,
              shape: {
                authUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                requestUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                queryUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                parametersUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                registrationUrl: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                },
                walletUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                ecommerceUrl: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                ecommerceQueryUrl: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                },
                clientId: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                clientSecretFile: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                merchantId: {
                  type: 'optional',
                  inner: {
                    type: 'string',
                    checks: [
                      {
                        kind: 'regex',
                        source:
                          '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
                        flags: '',
                      },
                    ],
                  },
                },
                merchantKeyFile: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                },
                ksi: { type: 'string', checks: [{ kind: 'regex', source: '^\\d{5}$', flags: '' }] },
                timeoutMs: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 100, inclusive: true },
                      { kind: 'less_than', value: 120000, inclusive: true },
                    ],
                  },
                  value: 30000,
                },
              },
            },
          },
        },
      ],
      discriminator: 'kind',
      exact: true,
    },
    cardNotPresent: {
      type: 'optional',
      inner: {
        type: 'union',
        options: [
          { type: 'object', strict: true, shape: { kind: { type: 'literal', values: ['ecommerce'] } } },
          {
            type: 'object',
            strict: true,
            shape: {
              kind: { type: 'literal', values: ['webservice15'] },
              url: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
              affiliation: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9]{1,20}$', flags: '' }] },
              keyFile: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
              timeoutMs: {
                type: 'default',
                inner: {
                  type: 'number',
                  checks: [
                    { kind: 'safeint' },
                    { kind: 'greater_than', value: 100, inclusive: true },
                    { kind: 'less_than', value: 120000, inclusive: true },
                  ],
                },
                value: 30000,
              },
            },
          },
        ],
        discriminator: 'kind',
        exact: true,
      },
    },
    sandbox: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          embedded: { type: 'default', inner: { type: 'boolean' }, value: true },
          port: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 65535, inclusive: true },
              ],
            },
            value: 18443,
          },
          outcomeAttempts: {
            type: 'optional',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 100, inclusive: true },
              ],
            },
          },
        },
      },
      value: {},
    },
    pinpad: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          device: {
            type: 'default',
            inner: {
              type: 'union',
              options: [
                {
                  type: 'object',
                  strict: true,
                  shape: {
                    kind: { type: 'literal', values: ['virtual'] },
                    port: {
                      type: 'default',
                      inner: {
                        type: 'number',
                        checks: [
                          { kind: 'safeint' },
                          { kind: 'greater_than', value: 0, inclusive: true },
                          { kind: 'less_than', value: 65535, inclusive: true },
                        ],
                      },
                      value: 0,
                    },
                    control: {
                      type: 'optional',
                      inner: {
                        type: 'number',
                        checks: [
                          { kind: 'safeint' },
                          { kind: 'greater_than', value: 0, inclusive: true },
                          { kind: 'less_than', value: 65535, inclusive: true },
                        ],
                      },
                    },
                  },
                },
                {
                  type: 'object',
                  strict: true,
                  shape: {
                    kind: { type: 'literal', values: ['serial'] },
                    path: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                    baudRate: {
                      type: 'default',
                      inner: {
                        type: 'number',
                        checks: [{ kind: 'safeint' }, { kind: 'greater_than', value: 0, inclusive: false }],
                      },
                      value: 19200,
                    },
                  },
                },
                {
                  type: 'object',
                  strict: true,
                  shape: {
                    kind: { type: 'literal', values: ['usb'] },
                    vendorId: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9a-fA-F]{4}$', flags: '' }] },
                    productId: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9a-fA-F]{4}$', flags: '' }] },
                  },
                },
                {
                  type: 'object',
                  strict: true,
                  shape: {
                    kind: { type: 'literal', values: ['tcp'] },
                    host: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                    port: {
                      type: 'number',
                      checks: [
                        { kind: 'safeint' },
                        { kind: 'greater_than', value: 0, inclusive: true },
                        { kind: 'less_than', value: 65535, inclusive: true },
                      ],
                    },
                  },
                },
                {
                  type: 'object',
                  strict: true,
                  shape: {
                    kind: { type: 'literal', values: ['bibcomp'] },
                    library: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                    port: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                    callTimeoutMs: {
                      type: 'default',
                      inner: {
                        type: 'number',
                        checks: [
                          { kind: 'safeint' },
                          { kind: 'greater_than', value: 1000, inclusive: true },
                          { kind: 'less_than', value: 600000, inclusive: true },
                        ],
                      },
                      value: 15000,
                    },
                  },
                },
              ],
              discriminator: 'kind',
              exact: true,
            },
            value: { kind: 'virtual', port: 0 },
          },
          pinKeySlot: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 99, inclusive: true },
              ],
            },
            value: 1,
          },
          dataKeySlot: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 99, inclusive: true },
              ],
            },
            value: 2,
          },
          acquirerIndex: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 99, inclusive: true },
              ],
            },
            value: 3,
          },
        },
      },
      value: {},
    },
    printer: {
      type: 'default',
      inner: {
        type: 'union',
        options: [
          { type: 'object', strict: true, shape: { kind: { type: 'literal', values: ['virtual'] } } },
          { type: 'object', strict: true, shape: { kind: { type: 'literal', values: ['none'] } } },
          {
            type: 'object',
            strict: true,
            shape: {
              kind: { type: 'literal', values: ['usb'] },
              vendorId: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9a-fA-F]{4}$', flags: '' }] },
              productId: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9a-fA-F]{4}$', flags: '' }] },
            },
          },
          {
            type: 'object',
            strict: true,
            shape: {
              kind: { type: 'literal', values: ['serial'] },
              path: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
              baudRate: {
                type: 'default',
                inner: {
                  type: 'number',
                  checks: [{ kind: 'safeint' }, { kind: 'greater_than', value: 0, inclusive: false }],
                },
                value: 9600,
              },
            },
          },
          {
            type: 'object',
            strict: true,
            shape: {
              kind: { type: 'literal', values: ['tcp'] },
              host: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
              port: {
                type: 'default',
                inner: {
                  type: 'number',
                  checks: [
                    { kind: 'safeint' },
                    { kind: 'greater_than', value: 0, inclusive: true },
                    { kind: 'less_than', value: 65535, inclusive: true },
                  ],
                },
                value: 9100,
              },
            },
          },
        ],
        discriminator: 'kind',
        exact: true,
      },
      value: { kind: 'virtual' },
    },
    payments: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          ecrDecisionSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 900,
          },
          closeMarginSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 21600, inclusive: true },
              ],
            },
            value: 1800,
          },
          visibilityWindowSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 900,
          },
          undoUnclearDeclines: { type: 'default', inner: { type: 'boolean' }, value: false },
        },
      },
      value: {},
    },
    qr: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          validitySeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 30, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 900,
          },
          watchMarginSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 300,
          },
          pollMs: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 100, inclusive: true },
                { kind: 'less_than', value: 60000, inclusive: true },
              ],
            },
            value: 1000,
          },
          provider: { type: 'optional', inner: { type: 'enum', values: ['terminal', 'ecommerce'] } },
        },
      },
      value: {},
    },
    initialization: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          everyHours: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 720, inclusive: true },
              ],
            },
            value: 24,
          },
        },
      },
      value: {},
    },
    api: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          host: {
            type: 'default',
            inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
            value: '127.0.0.1',
          },
          port: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 65535, inclusive: true },
              ],
            },
            value: 7878,
          },
          lan: {
            type: 'optional',
            inner: {
              type: 'object',
              strict: true,
              shape: {
                host: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                port: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 0, inclusive: true },
                      { kind: 'less_than', value: 65535, inclusive: true },
                    ],
                  },
                  value: 7879,
                },
                certFile: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                keyFile: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
              },
            },
          },
        },
      },
      value: {},
    },
    tefDial: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          enabled: { type: 'default', inner: { type: 'boolean' }, value: false },
          dir: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
          requestDir: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
          responseDir: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
        },
      },
      value: {},
    },
    alarms: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          webhook: {
            type: 'optional',
            inner: {
              type: 'object',
              strict: true,
              shape: {
                url: { type: 'string', checks: [{ kind: 'custom', name: 'httpUrl' }] },
                secretFile: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                timeoutMs: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 100, inclusive: true },
                      { kind: 'less_than', value: 60000, inclusive: true },
                    ],
                  },
                  value: 5000,
                },
              },
            },
          },
          checkSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 3600, inclusive: true },
              ],
            },
            value: 5,
          },
          closeWarningMinutes: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 720, inclusive: true },
              ],
            },
            value: 60,
          },
          clockOffsetSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 60,
          },
          captureWarningHours: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 240, inclusive: true },
              ],
            },
            value: 24,
          },
          probeSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 3600, inclusive: true },
              ],
            },
            value: 300,
          },
        },
      },
      value: {},
    },
    supervisor: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          passwordFile: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
        },
      },
      value: {},
    },
    log: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          level: {
            type: 'default',
            inner: { type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
            value: 'info',
          },
          file: { type: 'default', inner: { type: 'boolean' }, value: true },
          maxFileBytes: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 65536, inclusive: true },
                { kind: 'less_than', value: 1073741824, inclusive: true },
              ],
            },
            value: 8388608,
          },
          keepFiles: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 0, inclusive: true },
                { kind: 'less_than', value: 20, inclusive: true },
              ],
            },
            value: 3,
          },
          maxLinesPerSecond: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 10, inclusive: true },
                { kind: 'less_than', value: 100000, inclusive: true },
              ],
            },
            value: 200,
          },
        },
      },
      value: {},
    },
    storage: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          databaseDays: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 3650, inclusive: true },
              ],
            },
            value: 90,
          },
          archiveDays: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 36500, inclusive: true },
              ],
            },
            value: 1830,
          },
          maintenanceSeconds: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 86400, inclusive: true },
              ],
            },
            value: 600,
          },
          lowDiskDays: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [
                { kind: 'safeint' },
                { kind: 'greater_than', value: 1, inclusive: true },
                { kind: 'less_than', value: 3650, inclusive: true },
              ],
            },
            value: 30,
          },
          lowDiskBytes: {
            type: 'default',
            inner: {
              type: 'number',
              checks: [{ kind: 'safeint' }, { kind: 'greater_than', value: 1048576, inclusive: true }],
            },
            value: 268435456,
          },
        },
      },
      value: {},
    },
    fleet: {
      type: 'prefault',
      inner: {
        type: 'object',
        strict: true,
        shape: {
          mqtt: {
            type: 'optional',
            inner: {
              type: 'object',
              strict: true,
              shape: {
                url: { type: 'string', checks: [{ kind: 'regex', source: '^mqtts?:\\/\\/[^/\\s]+', flags: '' }] },
                merchant: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'regex', source: '^[0-9A-Za-z_-]{1,64}$', flags: '' }] },
                },
                topicPrefix: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'regex', source: '^[^#+\\s]+[^/#+\\s]$', flags: '' }] },
                },
                clientId: {
                  type: 'optional',
                  inner: {
                    type: 'string',
                    checks: [
                      { kind: 'min_length', value: 1 },
                      { kind: 'max_length', value: 64 },
                    ],
                  },
                },
                usernameFile: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                },
                passwordFile: {
                  type: 'optional',
                  inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] },
                },
                certFile: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
                keyFile: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
                caFile: { type: 'optional', inner: { type: 'string', checks: [{ kind: 'min_length', value: 1 }] } },
                keepaliveSeconds: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 5, inclusive: true },
                      { kind: 'less_than', value: 3600, inclusive: true },
                    ],
                  },
                  value: 30,
                },
                statusSeconds: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 5, inclusive: true },
                      { kind: 'less_than', value: 86400, inclusive: true },
                    ],
                  },
                  value: 300,
                },
                maxQueued: {
                  type: 'default',
                  inner: {
                    type: 'number',
                    checks: [
                      { kind: 'safeint' },
                      { kind: 'greater_than', value: 100, inclusive: true },
                      { kind: 'less_than', value: 1000000, inclusive: true },
                    ],
                  },
                  value: 50000,
                },
              },
            },
          },
        },
      },
      value: {},
    },
  },
};
