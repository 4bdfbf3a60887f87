import mongoose from 'mongoose';
const c = await mongoose.createConnection('mongodb://127.0.0.1:27017/probe_msg_ttl').asPromise();
const col = c.collection('outbox');
try { console.log('ttl', await col.createIndex({ published_at: 1 }, { expireAfterSeconds: 1 })); } catch (e) { console.log('ttl err', e.message); }
try { console.log('uniq', await col.createIndex({ event_id: 1 }, { unique: true })); } catch (e) { console.log('uniq err', e.message); }
await col.insertOne({ event_id: 'a', published_at: new Date(Date.now() - 10000) });
await col.insertOne({ event_id: 'b', published_at: null });
try { await col.insertOne({ event_id: 'a' }); } catch (e) { console.log('dup', e.code); }
const r = await col.findOneAndUpdate({ published_at: null, $or: [{ claimed_until: null }, { claimed_until: { $lt: new Date() } }] }, { $set: { claimed_until: new Date() } }, { sort: { occurred_at: 1, _id: 1 }, returnDocument: 'after' });
console.log('foau', r);
console.log(await col.indexes());
const buildInfo = await c.db.admin().command({ buildInfo: 1 }); console.log(buildInfo.version, buildInfo.ferretdbVersion);
setTimeout(async () => { console.log('after 70s', await col.find().toArray()); await c.dropDatabase(); await c.close(); }, 70000);
