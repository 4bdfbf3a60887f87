// Real dependencies in containers, used only where a Docker engine exists.
import type { Infra } from './infra.js';

export async function startContainers(): Promise<{ infra: Infra; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [mongo, redis, rabbit, maildev] = await Promise.all([
    new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start(),
    new GenericContainer('redis:7-alpine').withExposedPorts(6379).start(),
    new GenericContainer('rabbitmq:3.13-management')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
      .start(),
    new GenericContainer('maildev/maildev:2.1.0').withExposedPorts(1025, 1080).start(),
  ]);
  const host = (c: { getHost(): string }) => c.getHost();
  return {
    infra: {
      mongoUrl: `mongodb://${host(mongo)}:${mongo.getMappedPort(27017)}`,
      redisUrl: `redis://${host(redis)}:${redis.getMappedPort(6379)}`,
      amqpUrl: `amqp://guest:guest@${host(rabbit)}:${rabbit.getMappedPort(5672)}`,
      smtpUrl: `smtp://${host(maildev)}:${maildev.getMappedPort(1025)}`,
      maildevUrl: `http://${host(maildev)}:${maildev.getMappedPort(1080)}`,
    },
    stop: async () => {
      await Promise.all([mongo.stop(), redis.stop(), rabbit.stop(), maildev.stop()]);
    },
  };
}
