// An example fleet: the hosted clusters of examples/fleet/fleet.yaml (two management clusters,
// Agent, KubeVirt and AWS clusters) checked against the inventory schema, then built, checked
// fleet-wide and written as one folder per management cluster, hosted cluster and guest.
//   npx cdk8s synth --no-check-upgrade --app 'node build/examples/fleet/main.js'
import { Fleet, HcpApp } from '../../lib';
import { exampleDelivery } from '../delivery';
import { exampleFile } from '../example-file';

const app = new HcpApp({ delivery: exampleDelivery() });
Fleet.fromFile(app, exampleFile('fleet', 'fleet.yaml'));
app.synth();
